import { publicAddressPolicy } from '../../net/address-policy.js';
import { createSafeFetcher, type SafeFetcher } from '../../net/safe-fetch.js';
import { Inbox } from '../agent-loop/inbox.js';
import { runAgentLoop } from '../agent-loop/run-agent-loop.js';
import { toolExecutor } from '../tools/execute-tool-call.js';
import { buildInternTools } from '../tools/intern-tools.js';
import type { ChildCallMethod, ChildCalls, ChildMessage, ParentMessage, RunAssignment } from './protocol.js';

interface ActiveRun {
  inbox: Inbox;
  stop: AbortController;
}

/**
 * The child's side: answers the parent's requests and drives each assigned
 * run with the agent loop, asking the parent for model turns, recording and
 * secrets. Transport-free (send/receive passed in) so it runs in-process in
 * unit tests and over IPC in the intern's process.
 */
export function childRunner(send: (message: ChildMessage) => void) {
  let fetcher: SafeFetcher | undefined;
  let nextId = 1;
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const runs = new Map<string, ActiveRun>();

  const call = <M extends ChildCallMethod>(runId: string, method: M, args: ChildCalls[M]['args']): Promise<ChildCalls[M]['result']> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send({ type: 'call', id, runId, method, args });
    });

  function start(run: RunAssignment): void {
    const active: ActiveRun = { inbox: new Inbox(), stop: new AbortController() };
    runs.set(run.runId, active);
    const tools = buildInternTools(run.settings, {
      fetcher: fetcher ?? createSafeFetcher(),
      internId: run.internId,
      runId: run.runId,
      now: () => new Date(),
    });
    runAgentLoop(run.steps, {
      instructions: run.instructions,
      tools: tools.definitions,
      needsApproval: (name) => tools.byName.get(name)?.needsApproval ?? false,
      turn: (messages, definitions) => call(run.runId, 'turn', { messages, tools: definitions }),
      record: (step) => call(run.runId, 'record', { step }),
      execute: toolExecutor(tools.byName, async (names) => call(run.runId, 'secrets', { names })),
      inbox: active.inbox,
      now: async () => new Date(await call(run.runId, 'now', {})),
      deadlineAt: new Date(run.deadlineAt),
      mode: run.mode,
      fallbackAnswer: run.settings.fallback_answer,
      maxTurns: run.maxTurns,
      signal: active.stop.signal,
    })
      .then((outcome) => send({ type: 'done', runId: run.runId, outcome }))
      .catch((error: unknown) => send({ type: 'done', runId: run.runId, error: error instanceof Error ? error.message : String(error) }))
      .finally(() => runs.delete(run.runId));
  }

  return {
    receive(message: ParentMessage): void {
      if (message.type === 'reply') {
        const pending = calls.get(message.id);
        calls.delete(message.id);
        if (message.ok) pending?.resolve(message.value);
        else pending?.reject(new Error(message.error));
        return;
      }
      const ack = (error?: string) =>
        send(error === undefined ? { type: 'ack', id: message.id, ok: true } : { type: 'ack', id: message.id, ok: false, error });
      switch (message.type) {
        case 'init':
          fetcher = createSafeFetcher({ policy: publicAddressPolicy(message.init.allowPrivateRanges) });
          ack();
          return;
        case 'ping':
          ack();
          return;
        case 'run':
          // A run already going here (a repeated assignment) is acknowledged, not started twice.
          if (!runs.has(message.run.runId)) start(message.run);
          ack();
          return;
        case 'steer':
        case 'answer': {
          const run = runs.get(message.runId);
          if (!run) {
            ack(`run ${message.runId} is not running in this process`);
            return;
          }
          if (message.type === 'steer') run.inbox.steer(message.text);
          else run.inbox.answerWith(message.text);
          ack();
          return;
        }
        case 'stop':
          runs.get(message.runId)?.stop.abort();
          ack();
          return;
      }
    },
    /** Stops every run (the process is going away). */
    async close(): Promise<void> {
      for (const run of runs.values()) run.stop.abort();
      await fetcher?.close();
    },
  };
}

import type { ChatMessage, FunctionTool, ToolCall } from '../../protocol/chat.js';
import type { ApprovalMode } from '../intern-runtime.js';
import { ASK_QUESTION } from '../tools/intern-tool.js';
import type { Inbox } from './inbox.js';
import { nextOpenCall, type OpenCall } from './open-call.js';
import type { EndReason, NewStep, RecordedStep, StepOf } from './steps.js';
import { transcriptMessages } from './transcript-messages.js';

export interface LoopDeps {
  instructions: string | null;
  /** Offered to the model (ask_question included when the intern has it). */
  tools: readonly FunctionTool[];
  needsApproval(name: string): boolean;
  /**
   * Calls the model and appends its reply to the transcript as an assistant
   * step: one act where the call is billed, so a turn paid for is never lost
   * to a loop that dies before the reply reaches it (the resumed loop starts
   * after it instead of paying for it again).
   */
  turn(messages: ChatMessage[], tools: readonly FunctionTool[], signal: AbortSignal): Promise<StepOf<'assistant'>>;
  /** Appends a step to the run's transcript; resolves once it is stored (the loop acts on a step only after). */
  record(step: NewStep): Promise<RecordedStep>;
  /** Runs a tool call (secrets substituted by the executor): the result text the model sees. */
  execute(call: ToolCall['function'], signal: AbortSignal): Promise<{ content: string; error?: boolean }>;
  inbox: Inbox;
  now(): Date | Promise<Date>;
  deadlineAt: Date;
  mode: ApprovalMode;
  /** Self-drive's answer to its own questions. */
  fallbackAnswer: string;
  /** Model calls per run before it ends with step_limit. */
  maxTurns: number;
  /** Aborted when the run is stopped from outside (suspend, deadline while paused, shutdown). */
  signal: AbortSignal;
}

export interface LoopOutcome {
  reason: EndReason;
  error?: string;
  /** False when the loop was stopped from outside and recorded no end (the stopper records it, or the run resumes later). */
  recorded: boolean;
}

const GRANTS = /^\s*(approve|approved|yes|y|ok|allow|grant|granted)\s*[.!]?\s*$/i;

/**
 * Drives a run from its recorded steps to its end: calls the model, runs the
 * tools it calls, delivers steering between steps, pauses on questions and
 * approvals (manual) or answers them itself (self-drive), ends at the
 * deadline. Every step is recorded before it is acted on, and what to do
 * next is derived from the steps alone, so a run given the steps of an
 * interrupted one resumes where it stopped.
 */
export async function runAgentLoop(initial: readonly RecordedStep[], deps: LoopDeps): Promise<LoopOutcome> {
  const steps = [...initial];
  const push = async (step: NewStep) => {
    steps.push(await deps.record(step));
  };
  const end = async (reason: EndReason, error?: string): Promise<LoopOutcome> => {
    await push({ kind: 'end', content: { reason, ...(error !== undefined ? { error } : {}) } });
    return { reason, ...(error !== undefined ? { error } : {}), recorded: true };
  };
  const stopped: LoopOutcome = { reason: 'stopped', recorded: false };

  const last = steps.at(-1);
  if (last?.kind === 'end')
    return { reason: last.content.reason, ...(last.content.error ? { error: last.content.error } : {}), recorded: true };
  let turns = steps.filter((step) => step.kind === 'assistant').length;

  for (;;) {
    if (deps.signal.aborted) return stopped;
    if ((await deps.now()).getTime() >= deps.deadlineAt.getTime()) return end('deadline');

    const open = nextOpenCall(steps);
    if (open) {
      if (!(await settleCall(open))) return stopped;
      continue;
    }

    for (const text of deps.inbox.drainSteers()) await push({ kind: 'steer', content: { text } });
    const latest = steps.at(-1);
    if (latest?.kind === 'assistant' && !latest.content.message.tool_calls?.length) return end('finished');
    if (turns >= deps.maxTurns) return end('step_limit', `more than ${deps.maxTurns} model calls`);

    let turn: StepOf<'assistant'>;
    try {
      turn = await deps.turn(transcriptMessages(deps.instructions, steps), deps.tools, deps.signal);
    } catch (error) {
      if (deps.signal.aborted) return stopped;
      return end('failed', error instanceof Error ? error.message : String(error));
    }
    turns += 1;
    steps.push(turn);
  }

  /** Moves an open tool call to its result; false when stopped while waiting for an answer. */
  async function settleCall(open: OpenCall): Promise<boolean> {
    const { call } = open;
    if (call.function.name === ASK_QUESTION) {
      if (!open.asked) await push({ kind: 'question', content: { id: call.id, question: questionOf(call.function.arguments) } });
      const answer = deps.mode === 'self-drive' ? deps.fallbackAnswer : await deps.inbox.nextAnswer(deps.signal);
      if (answer === undefined) return false;
      await push({ kind: 'answer', content: { id: call.id, answer, by: deps.mode === 'self-drive' ? 'fallback' : 'user' } });
      return true;
    }
    if (deps.needsApproval(call.function.name) && !open.granted) {
      if (!open.asked)
        await push({ kind: 'approval', content: { id: call.id, name: call.function.name, arguments: call.function.arguments } });
      const answer = deps.mode === 'self-drive' ? 'approve' : await deps.inbox.nextAnswer(deps.signal);
      if (answer === undefined) return false;
      const granted = GRANTS.test(answer);
      await push({
        kind: 'answer',
        content: { id: call.id, answer: granted ? '' : answer, granted, by: deps.mode === 'self-drive' ? 'self-drive' : 'user' },
      });
      return true;
    }
    if (open.started) {
      // Recorded as started but no result: the process stopped mid-call. Running it again could repeat a side effect (a second notify).
      await push({
        kind: 'tool_result',
        content: {
          id: call.id,
          name: call.function.name,
          content: 'interrupted: the runtime restarted during this call; it may or may not have completed',
          error: true,
        },
      });
      return true;
    }
    await push({ kind: 'tool_call', content: { id: call.id, name: call.function.name, arguments: call.function.arguments } });
    const result = await deps.execute(call.function, deps.signal);
    await push({
      kind: 'tool_result',
      content: { id: call.id, name: call.function.name, content: result.content, ...(result.error ? { error: true } : {}) },
    });
    return true;
  }
}

function questionOf(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    const question = (parsed as { question?: unknown } | null)?.question;
    if (typeof question === 'string' && question !== '') return question;
  } catch {
    // The raw arguments stand as the question.
  }
  return args;
}

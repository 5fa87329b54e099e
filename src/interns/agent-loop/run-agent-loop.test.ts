import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ChatMessage } from '../../protocol/chat.js';
import { askQuestionDefinition } from '../tools/intern-tool.js';
import { Inbox } from './inbox.js';
import { type LoopDeps, runAgentLoop } from './run-agent-loop.js';
import type { NewStep, RecordedStep, StepOf } from './steps.js';

const call = (id: string, name: string, args: unknown): AssistantMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const text = (content: string): AssistantMessage => ({ role: 'assistant', content });

/** A loop over a scripted model, recording into an array; the clock moves only when told. */
function harness(
  script: AssistantMessage[],
  overrides: Partial<LoopDeps> = {},
  initial: RecordedStep[] = [{ seq: 1, kind: 'input', content: { text: 'go' } }],
) {
  const steps: RecordedStep[] = [...initial];
  const seen: ChatMessage[][] = [];
  const executed: string[] = [];
  let now = Date.parse('2026-01-01T00:00:00Z');
  const append = (step: NewStep): RecordedStep => {
    const recorded = { ...step, seq: steps.length + 1 } as RecordedStep;
    steps.push(recorded);
    return recorded;
  };
  const deps: LoopDeps = {
    instructions: 'be useful',
    tools: [askQuestionDefinition],
    needsApproval: (name) => name === 'notify',
    turn: async (messages) => {
      seen.push(messages);
      const next = script.shift();
      if (!next) throw new Error('the model has nothing more to say');
      return append({ kind: 'assistant', content: { message: next } }) as StepOf<'assistant'>;
    },
    record: async (step) => append(step),
    execute: async (fn) => {
      executed.push(fn.name);
      return { content: `${fn.name} ran with ${fn.arguments}` };
    },
    inbox: new Inbox(),
    now: () => new Date(now),
    deadlineAt: new Date(now + 3_600_000),
    mode: 'self-drive',
    fallbackAnswer: 'use your judgement',
    maxTurns: 10,
    signal: new AbortController().signal,
    ...overrides,
  };
  return { deps, steps, seen, executed, advance: (ms: number) => (now += ms), run: () => runAgentLoop(steps.slice(), deps) };
}

describe('runAgentLoop', () => {
  it('calls a tool, gives the model its result, and finishes on a text answer', async () => {
    const h = harness([call('c1', 'http_fetch', { url: 'https://example.com' }), text('done')]);
    const outcome = await h.run();
    expect(outcome).toEqual({ reason: 'finished', recorded: true });
    expect(h.steps.map((s) => s.kind)).toEqual(['input', 'assistant', 'tool_call', 'tool_result', 'assistant', 'end']);
    expect(h.executed).toEqual(['http_fetch']);
    expect(h.seen[1]?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'http_fetch ran with {"url":"https://example.com"}' });
    expect(h.seen[0]?.[0]).toEqual({ role: 'system', content: 'be useful' });
  });

  it('answers its own question with the fallback in self-drive', async () => {
    const h = harness([call('q1', 'ask_question', { question: 'which city?' }), text('ok')]);
    await h.run();
    expect(h.steps.find((s) => s.kind === 'question')?.content).toEqual({ id: 'q1', question: 'which city?' });
    expect(h.seen[1]?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'q1', content: 'use your judgement' });
  });

  it('grants its own approvals in self-drive', async () => {
    const h = harness([call('n1', 'notify', { report: 'r' }), text('sent')]);
    await h.run();
    expect(h.steps.map((s) => s.kind)).toEqual([
      'input',
      'assistant',
      'approval',
      'answer',
      'tool_call',
      'tool_result',
      'assistant',
      'end',
    ]);
    expect(h.executed).toEqual(['notify']);
  });

  it('waits for the user in manual mode; a refusal stands as the tool result and the tool does not run', async () => {
    const inbox = new Inbox();
    const h = harness([call('n1', 'notify', { report: 'r' }), text('understood')], { mode: 'manual', inbox });
    const running = h.run();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(h.steps.at(-1)?.kind).toBe('approval');
    inbox.answerWith('no, not yet');
    await expect(running).resolves.toMatchObject({ reason: 'finished' });
    expect(h.executed).toEqual([]);
    expect(h.seen[1]?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'n1', content: 'not approved: no, not yet' });
  });

  it('a manual question is answered by the user', async () => {
    const inbox = new Inbox();
    inbox.answerWith('Paris');
    const h = harness([call('q1', 'ask_question', { question: 'which city?' }), text('ok')], { mode: 'manual', inbox });
    await h.run();
    expect(h.steps.find((s) => s.kind === 'answer')?.content).toEqual({ id: 'q1', answer: 'Paris', by: 'user' });
  });

  it('is stopped while waiting for an answer without recording an end', async () => {
    const stop = new AbortController();
    const h = harness([call('q1', 'ask_question', { question: '?' })], { mode: 'manual', signal: stop.signal });
    const running = h.run();
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    await expect(running).resolves.toEqual({ reason: 'stopped', recorded: false });
    expect(h.steps.at(-1)?.kind).toBe('question');
  });

  it('delivers steering before the next model call', async () => {
    const inbox = new Inbox();
    const h = harness([call('c1', 'http_fetch', {}), text('done with both')], {
      inbox,
      execute: async () => {
        inbox.steer('also check the weather');
        return { content: 'fetched' };
      },
    });
    await h.run();
    expect(h.steps.map((s) => s.kind)).toEqual(['input', 'assistant', 'tool_call', 'tool_result', 'steer', 'assistant', 'end']);
    expect(h.seen[1]?.at(-1)).toEqual({ role: 'user', content: 'also check the weather' });
  });

  it('ends at the deadline with a recorded reason', async () => {
    const h = harness([call('c1', 'http_fetch', {}), text('never reached')], {
      execute: async () => {
        h.advance(3_600_000);
        return { content: 'slow' };
      },
    });
    await expect(h.run()).resolves.toEqual({ reason: 'deadline', recorded: true });
    expect(h.steps.at(-1)).toMatchObject({ kind: 'end', content: { reason: 'deadline' } });
    expect(h.seen).toHaveLength(1);
  });

  it('ends failed when the model call fails', async () => {
    const h = harness([]);
    await expect(h.run()).resolves.toEqual({ reason: 'failed', error: 'the model has nothing more to say', recorded: true });
  });

  it('ends at the step limit', async () => {
    const h = harness([call('a', 'x', {}), call('b', 'x', {}), call('c', 'x', {})], { maxTurns: 2 });
    await expect(h.run()).resolves.toMatchObject({ reason: 'step_limit' });
    expect(h.executed).toEqual(['x', 'x']);
  });

  it('resumes from recorded steps: a call cut off mid-execution is not run again', async () => {
    const initial: RecordedStep[] = [
      { seq: 1, kind: 'input', content: { text: 'go' } },
      { seq: 2, kind: 'assistant', content: { message: call('n1', 'notify', {}) } },
      { seq: 3, kind: 'approval', content: { id: 'n1', name: 'notify', arguments: '{}' } },
      { seq: 4, kind: 'answer', content: { id: 'n1', answer: '', granted: true, by: 'self-drive' } },
      { seq: 5, kind: 'tool_call', content: { id: 'n1', name: 'notify', arguments: '{}' } },
    ];
    const h = harness([text('resumed')], {}, initial);
    await expect(h.run()).resolves.toMatchObject({ reason: 'finished' });
    expect(h.executed).toEqual([]);
    expect(h.steps[5]).toMatchObject({ kind: 'tool_result', content: { id: 'n1', error: true } });
  });

  it('resumes a run whose tool result was recorded by calling the model next', async () => {
    const initial: RecordedStep[] = [
      { seq: 1, kind: 'input', content: { text: 'go' } },
      { seq: 2, kind: 'assistant', content: { message: call('c1', 'http_fetch', {}) } },
      { seq: 3, kind: 'tool_call', content: { id: 'c1', name: 'http_fetch', arguments: '{}' } },
      { seq: 4, kind: 'tool_result', content: { id: 'c1', name: 'http_fetch', content: 'page' } },
    ];
    const h = harness([text('summary')], {}, initial);
    await h.run();
    expect(h.executed).toEqual([]);
    expect(h.seen[0]?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'page' });
  });

  it('returns the recorded end of a run that already ended', async () => {
    const h = harness([], {}, [
      { seq: 1, kind: 'input', content: { text: 'go' } },
      { seq: 2, kind: 'end', content: { reason: 'deadline' } },
    ]);
    await expect(h.run()).resolves.toEqual({ reason: 'deadline', recorded: true });
    expect(h.steps).toHaveLength(2);
  });
});

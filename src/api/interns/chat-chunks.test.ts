import { describe, expect, it } from 'vitest';
import { eventChunks, PROVIDE_INPUT } from './chat-chunks.js';

const ctx = { id: 'chatcmpl-1', created: 1, model: 'sim/agent', sessionId: 'isess_1' };
const deltas = (event: Parameters<typeof eventChunks>[1]) =>
  eventChunks(ctx, event).map((c) => [c.choices[0]!.delta, c.choices[0]!.finish_reason]);

describe('eventChunks', () => {
  it("carries the session id on every chunk and shows the intern's words as content, its tool work as reasoning", () => {
    const [first] = eventChunks(ctx, {
      type: 'step',
      seq: 2,
      kind: 'assistant',
      content: { message: { role: 'assistant', content: 'Done.' } },
    });
    expect(first).toMatchObject({
      object: 'chat.completion.chunk',
      session_id: 'isess_1',
      choices: [{ index: 0, delta: { content: 'Done.' }, finish_reason: null }],
    });
    expect(deltas({ type: 'step', seq: 3, kind: 'tool_call', content: { id: 'c', name: 'http_fetch', arguments: '{"url":"x"}' } })).toEqual(
      [[{ reasoning: '[http_fetch] {"url":"x"}\n' }, null]],
    );
    expect(deltas({ type: 'step', seq: 1, kind: 'input', content: { text: 'hi' } })).toEqual([]);
    expect(deltas({ type: 'step', seq: 5, kind: 'answer', content: { id: 'a', answer: '', granted: false, by: 'user' } })).toEqual([
      [{ reasoning: '[approval denied by user]\n' }, null],
    ]);
    expect(deltas({ type: 'step', seq: 6, kind: 'answer', content: { id: 'q', answer: 'Paris', by: 'fallback' } })).toEqual([
      [{ reasoning: '[answer by fallback] Paris\n' }, null],
    ]);
    expect(
      deltas({ type: 'step', seq: 4, kind: 'assistant', content: { message: { role: 'assistant', content: null, tool_calls: [] } } }),
    ).toEqual([]);
  });

  it('surfaces a pending question as a provide_input tool call, and ends with stop or an error chunk', () => {
    const [pending] = eventChunks(ctx, {
      type: 'pending',
      kind: 'question',
      content: { kind: 'question', id: 'q1', question: 'Which city?' },
    });
    expect(pending!.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      delta: { tool_calls: [{ id: 'q1', type: 'function', function: { name: PROVIDE_INPUT } }] },
    });
    expect(JSON.parse((pending!.choices[0]!.delta.tool_calls![0] as { function: { arguments: string } }).function.arguments)).toMatchObject(
      { kind: 'elicitation', message: 'Which city?' },
    );
    expect(deltas({ type: 'end', reason: 'finished' })).toEqual([[{}, 'stop']]);
    const [deadline] = eventChunks(ctx, { type: 'end', reason: 'deadline' });
    expect(deadline).toMatchObject({
      choices: [{ finish_reason: 'error' }],
      error: { code: 410, message: expect.stringMatching(/deadline/), metadata: { reason: 'run_ended', retryable: false } },
    });
    expect(eventChunks(ctx, { type: 'end', reason: 'failed', error: 'boom' })[0]).toMatchObject({
      error: { code: 502, message: 'The run failed: boom', metadata: { reason: 'turn_failed' } },
    });
    expect(eventChunks(ctx, { type: 'end', reason: 'stopped' })[0]).toMatchObject({
      error: { code: 410, metadata: { reason: 'run_ended' } },
    });
    // A question left unanswered past its interaction deadline: the run was cancelled, and the stream says why.
    expect(
      eventChunks(ctx, {
        type: 'end',
        reason: 'cancelled',
        error: 'no answer within the interaction deadline (2026-01-01T00:05:00.000Z)',
      })[0],
    ).toMatchObject({
      choices: [{ finish_reason: 'error' }],
      error: {
        code: 410,
        message: 'The run ended (cancelled: no answer within the interaction deadline (2026-01-01T00:05:00.000Z))',
        metadata: { reason: 'run_ended', retryable: false },
      },
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../protocol/chat.js';
import { MessagesEventsFromChunks } from './messages-events-from-chunks.js';

type Delta = ChatCompletionChunk['choices'][number]['delta'];
const chunk = (
  delta: Delta,
  finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null,
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk => ({
  id: 'x',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

const run = (chunks: ChatCompletionChunk[], usage?: Parameters<MessagesEventsFromChunks['finish']>[0]) => {
  const events = new MessagesEventsFromChunks({ id: 'gen-1', model: 'openai/gpt' });
  return [...chunks.flatMap((c) => events.chunk(c)), ...events.finish(usage)];
};

describe('MessagesEventsFromChunks', () => {
  it('frames a text answer: message_start, ping, one text block, message_delta with stop reason and usage, message_stop', () => {
    const usage = { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 };
    expect(
      run([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage },
      ]),
    ).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'gen-1',
          model: 'openai/gpt',
          type: 'message',
          role: 'assistant',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null },
        },
      },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { input_tokens: 12, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      { type: 'message_stop' },
    ]);
  });

  it('gives reasoning its thinking block before the text, and each tool call its own tool_use block', () => {
    const events = run([
      chunk({ reasoning: 'Think' }),
      chunk({ content: 'Calling.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'a', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'b', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const shape = events
      .slice(2)
      .map((e) => [
        e.type,
        e.index,
        (e.content_block as { type?: string } | undefined)?.type ?? (e.delta as { type?: string } | undefined)?.type,
      ]);
    expect(shape).toEqual([
      ['content_block_start', 0, 'thinking'],
      ['content_block_delta', 0, 'thinking_delta'],
      ['content_block_stop', 0, undefined],
      ['content_block_start', 1, 'text'],
      ['content_block_delta', 1, 'text_delta'],
      ['content_block_stop', 1, undefined],
      ['content_block_start', 2, 'tool_use'],
      ['content_block_delta', 2, 'input_json_delta'],
      ['content_block_delta', 2, 'input_json_delta'],
      ['content_block_stop', 2, undefined],
      ['content_block_start', 3, 'tool_use'],
      ['content_block_delta', 3, 'input_json_delta'],
      ['content_block_stop', 3, undefined],
      ['message_delta', undefined, undefined],
      ['message_stop', undefined, undefined],
    ]);
    expect(events.at(-2)!.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
    expect(events[8]!.content_block).toEqual({ type: 'tool_use', id: 'call_1', name: 'a', input: {} });
    expect(
      events
        .filter((e) => e.index === 2 && e.type === 'content_block_delta')
        .map((e) => (e.delta as { partial_json: string }).partial_json)
        .join(''),
    ).toBe('{"x":1}');
  });

  it('still frames a whole message when the stream had no content, with the usage given at the end', () => {
    const events = run([], { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 });
    expect(events.map((e) => e.type)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
    expect(events[2]!.usage).toMatchObject({ input_tokens: 5, output_tokens: 0 });
  });

  it("carries the usage's cost on message_delta, and service_metadata on message_stop only when given", () => {
    const usage = { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6, cost: 0.00042 };
    const plain = new MessagesEventsFromChunks({ id: 'gen-1', model: 'm' }).finish(usage);
    expect(plain.at(-2)!.usage).toEqual({
      input_tokens: 5,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost: 0.00042,
    });
    expect(plain.at(-1)).toEqual({ type: 'message_stop' });
    const described = new MessagesEventsFromChunks({ id: 'gen-1', model: 'm' }).finish(usage, { attempt: 2 });
    expect(described.at(-1)).toEqual({ type: 'message_stop', service_metadata: { attempt: 2 } });
  });

  it('reads only the first choice, and a length finish as max_tokens', () => {
    const other = { ...chunk({}), choices: [{ index: 1, delta: { content: 'ignored' }, finish_reason: null }] } as ChatCompletionChunk;
    const events = run([chunk({ content: 'a' }), other, chunk({}, 'length')]);
    expect(events.filter((e) => e.type === 'content_block_delta')).toHaveLength(1);
    expect(events.at(-2)!.delta).toEqual({ stop_reason: 'max_tokens', stop_sequence: null });
  });
});

describe('MessagesEventsFromChunks, for any chunk stream', () => {
  const piece = fc.oneof(
    fc.record({ kind: fc.constant('text' as const), text: fc.string({ minLength: 1, maxLength: 5 }) }),
    fc.record({ kind: fc.constant('reasoning' as const), text: fc.string({ minLength: 1, maxLength: 5 }) }),
    fc.record({ kind: fc.constant('call' as const), text: fc.string({ maxLength: 5 }) }),
    fc.record({ kind: fc.constant('args' as const), text: fc.string({ minLength: 1, maxLength: 5 }) }),
  );

  it('opens and closes blocks in order, one delta type per block, and keeps every piece of text in its block', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        let calls = 0;
        const chunks = pieces.map((p) => {
          if (p.kind === 'text') return chunk({ content: p.text });
          if (p.kind === 'reasoning') return chunk({ reasoning: p.text });
          if (p.kind === 'call')
            return chunk({
              tool_calls: [{ index: calls, id: `call_${calls++}`, type: 'function', function: { name: 'f', arguments: p.text } }],
            });
          return chunk({ tool_calls: [{ index: Math.max(0, calls - 1), function: { arguments: p.text } }] });
        });
        const events = run(chunks);
        expect(events[0]!.type).toBe('message_start');
        expect(events.slice(-2).map((e) => e.type)).toEqual(['message_delta', 'message_stop']);
        let open: { index: number; type: string } | undefined;
        let next = 0;
        const text: Record<string, string> = { text: '', thinking: '' };
        for (const event of events.slice(1, -2)) {
          if (event.type === 'content_block_start') {
            expect(open).toBeUndefined();
            expect(event.index).toBe(next++);
            open = { index: event.index as number, type: (event.content_block as { type: string }).type };
          } else if (event.type === 'content_block_stop') {
            expect(event.index).toBe(open?.index);
            open = undefined;
          } else if (event.type === 'content_block_delta') {
            const delta = event.delta as { type: string; text?: string; thinking?: string };
            expect(event.index).toBe(open?.index);
            expect(delta.type).toBe({ text: 'text_delta', thinking: 'thinking_delta', tool_use: 'input_json_delta' }[open!.type]);
            if (delta.text !== undefined) text.text += delta.text;
            if (delta.thinking !== undefined) text.thinking += delta.thinking;
          } else expect(event.type).toBe('ping');
        }
        expect(open).toBeUndefined();
        // Pieces of text only ever join their own kind: the text and the reasoning arrive whole, in order.
        expect(text.text).toBe(
          pieces
            .filter((p) => p.kind === 'text')
            .map((p) => p.text)
            .join(''),
        );
        expect(text.thinking).toBe(
          pieces
            .filter((p) => p.kind === 'reasoning')
            .map((p) => p.text)
            .join(''),
        );
        const toolBlocks = events.filter(
          (e) => e.type === 'content_block_start' && (e.content_block as { type: string }).type === 'tool_use',
        );
        expect(toolBlocks.length).toBeGreaterThanOrEqual(calls);
      }),
    );
  });
});

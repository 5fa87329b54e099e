import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServerToolRun } from '../plugins/server-tools/tool-loop.js';
import type { ChatCompletionChunk, ToolCall } from '../protocol/chat.js';
import { ChatChunksToResponseEvents } from './convert-chat-chunks-to-response-events.js';
import { type ItemIds, responseShell } from './convert-chat-to-response.js';

const counter = (): ItemIds => {
  let n = 0;
  return (prefix) => `${prefix}_${++n}`;
};
const shell = responseShell({ input: 'hi' }, { id: 'gen-1', model: 'm', createdAt: 100 });
const chunk = (
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null,
  usage?: ChatCompletionChunk['usage'],
): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 100,
  model: 'up',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...(usage ? { usage } : {}),
});

function run(chunks: ChatCompletionChunk[]) {
  const converter = new ChatChunksToResponseEvents(shell, counter());
  const events = [...converter.start(), ...chunks.flatMap((c) => converter.push(c)), ...converter.finish(101)];
  return { events, converter };
}

const codeCall: ToolCall = { id: 'call_1', type: 'function', function: { name: 'code_interpreter', arguments: '{"code":"print(42)"}' } };
const ran: ServerToolRun = { call: codeCall, result: { content: '{}', data: { container_id: 'cntr_1', exit_code: 0 }, logs: '42\n' } };

describe('ChatChunksToResponseEvents', () => {
  it('shows a code run between the model’s steps: its text closed, the call’s events in OpenAI’s order, then a new message', () => {
    const converter = new ChatChunksToResponseEvents(shell, counter(), true);
    const events = [
      ...converter.start(),
      ...converter.push(chunk({ role: 'assistant', content: 'Running it.' })),
      ...converter.tool({ call: codeCall }),
      ...converter.tool(ran),
      ...converter.push(chunk({ content: 'It printed 42.' })),
      ...converter.push(chunk({}, 'stop')),
      ...converter.finish(101),
    ];
    const types = events.map((e) => e.type);
    expect(types.slice(types.indexOf('response.output_item.done') + 1, types.lastIndexOf('response.output_item.added'))).toEqual([
      'response.output_item.added',
      'response.code_interpreter_call.in_progress',
      'response.code_interpreter_call_code.delta',
      'response.code_interpreter_call_code.done',
      'response.code_interpreter_call.interpreting',
      'response.code_interpreter_call.completed',
      'response.output_item.done',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const added = events.find((e) => e.type === 'response.output_item.added' && e.output_index === 1);
    expect(added?.item).toEqual({ type: 'code_interpreter_call', id: 'ci_2', status: 'in_progress', code: '', outputs: null });
    expect(events.find((e) => e.type === 'response.code_interpreter_call_code.delta')).toMatchObject({
      item_id: 'ci_2',
      output_index: 1,
      delta: 'print(42)',
    });
    const final = events.at(-1)?.response;
    expect(final?.output.map((item) => item.type)).toEqual(['message', 'code_interpreter_call', 'message']);
    expect(final?.output[1]).toEqual({
      type: 'code_interpreter_call',
      id: 'ci_2',
      status: 'completed',
      code: 'print(42)',
      container_id: 'cntr_1',
      outputs: [{ type: 'logs', logs: '42\n' }],
    });
  });

  it('shows no other server tool’s calls', () => {
    const converter = new ChatChunksToResponseEvents(shell, counter());
    const search: ToolCall = { id: 'call_2', type: 'function', function: { name: 'web_search', arguments: '{}' } };
    expect([...converter.tool({ call: search }), ...converter.tool({ call: search, result: { content: 'found' } })]).toEqual([]);
  });

  it('streams text as a message item with its part, deltas and done events, numbered in order', () => {
    const { events } = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop', { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0]).toMatchObject({ response: { id: 'gen-1', status: 'in_progress', output: [] } });
    expect(events[2]).toMatchObject({ output_index: 0, item: { type: 'message', id: 'msg_1', status: 'in_progress', content: [] } });
    expect(events[4]).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'Hel',
      logprobs: [],
    });
    expect(events[6]).toMatchObject({ text: 'Hello', item_id: 'msg_1' });
    const done = events.at(-1)!;
    expect(done.response).toMatchObject({
      status: 'completed',
      completed_at: 101,
      output: [{ type: 'message', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Hello' }] }],
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    });
  });

  it('closes reasoning before the text, and the text before each function call', () => {
    const { events } = run([
      chunk({ reasoning: 'Think' }),
      chunk({ content: 'Let me check.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const types = events.map((e) => `${e.type}${e.output_index !== undefined ? `@${e.output_index}` : ''}`);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added@0',
      'response.content_part.added@0',
      'response.reasoning_text.delta@0',
      'response.reasoning_text.done@0',
      'response.content_part.done@0',
      'response.output_item.done@0',
      'response.output_item.added@1',
      'response.content_part.added@1',
      'response.output_text.delta@1',
      'response.output_text.done@1',
      'response.content_part.done@1',
      'response.output_item.done@1',
      'response.output_item.added@2',
      'response.function_call_arguments.delta@2',
      'response.function_call_arguments.delta@2',
      'response.function_call_arguments.done@2',
      'response.output_item.done@2',
      'response.output_item.added@3',
      'response.function_call_arguments.delta@3',
      'response.function_call_arguments.done@3',
      'response.output_item.done@3',
      'response.completed',
    ]);
    expect(events.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({
      item_id: 'fc_3',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(events.at(-1)!.response!.output).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: 'Think' }], status: 'completed' },
      {
        type: 'message',
        id: 'msg_2',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Let me check.', annotations: [], logprobs: [] }],
      },
      { type: 'function_call', id: 'fc_3', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call', id: 'fc_4', call_id: 'call_2', name: 'get_time', arguments: '{}', status: 'completed' },
    ]);
  });

  it('ends a cut answer with response.incomplete', () => {
    const { events } = run([chunk({ content: 'Once' }), chunk({}, 'length')]);
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('keeps the last usage a chunk reported, canonical, the upstream id and the service tier', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_tokens_details: { cache_write_tokens: 1 } };
    const { converter, events } = run([
      { ...chunk({ content: 'x' }, 'stop'), service_tier: 'flex' },
      { ...chunk({}), choices: [], usage },
    ]);
    expect(converter.usage).toEqual(usage);
    expect(converter.upstreamId).toBe('c');
    expect(events.at(-1)!.response).toMatchObject({ service_tier: 'flex' });
  });

  it('answers nothing but the opening and the end for an empty answer', () => {
    const { events } = run([chunk({}, 'stop')]);
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(events.at(-1)!.response!.output).toEqual([]);
  });
});

describe('ChatChunksToResponseEvents, any chunk sequence', () => {
  const piece = fc.string({ minLength: 1, maxLength: 4 });
  const step = fc.oneof(
    piece.map((content) => ({ content })),
    piece.map((reasoning) => ({ reasoning })),
    fc.record({ call: fc.integer({ min: 0, max: 2 }), args: piece }),
  );

  it('numbers events in order, closes every item it opens, and ends with what its deltas said', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const seen = new Set<number>();
        const chunks = steps.map((s) => {
          if (!('call' in s)) return chunk(s);
          const first = !seen.has(s.call);
          seen.add(s.call);
          return chunk({
            tool_calls: [
              {
                index: s.call,
                ...(first
                  ? { id: `call_${s.call}`, function: { name: `f${s.call}`, arguments: s.args } }
                  : { function: { arguments: s.args } }),
              },
            ],
          });
        });
        const { events } = run([...chunks, chunk({}, 'stop')]);
        expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
        const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => e.output_index);
        const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.output_index);
        expect(added).toEqual(added.map((_, i) => i));
        expect(done).toEqual(added);
        const output = events.at(-1)!.response!.output;
        expect(output).toHaveLength(added.length);
        const texts = output.flatMap((item) =>
          item.type === 'message' ? item.content.map((p) => (p.type === 'output_text' ? p.text : '')) : [],
        );
        expect(texts.join('')).toBe(steps.map((s) => ('content' in s ? s.content : '')).join(''));
        const args = output.flatMap((item) => (item.type === 'function_call' ? [item.arguments] : [])).join('');
        expect(args).toBe(steps.map((s) => ('call' in s ? s.args : '')).join(''));
      }),
    );
  });
});

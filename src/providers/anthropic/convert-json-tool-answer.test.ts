import { describe, expect, it } from 'vitest';
import type { ChatCompletion, ChatCompletionChunk } from '../../protocol/chat.js';
import { convertJsonToolChunks, convertJsonToolCompletion } from './convert-json-tool-answer.js';
import { JSON_TOOL_NAME } from './convert-to-anthropic-json-output.js';

const completion = (message: ChatCompletion['choices'][number]['message'], finish: 'tool_calls' | 'length'): ChatCompletion => ({
  id: 'msg_1',
  object: 'chat.completion',
  created: 1,
  model: 'claude',
  system_fingerprint: null,
  choices: [{ index: 0, message, finish_reason: finish, native_finish_reason: 'tool_use' }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});
const call = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });

describe('convertJsonToolCompletion', () => {
  it("makes the JSON tool's input the content, and the finish reason stop", () => {
    const converted = convertJsonToolCompletion(
      completion({ role: 'assistant', content: null, tool_calls: [call('toolu_1', JSON_TOOL_NAME, '{"city":"Paris"}')] }, 'tool_calls'),
    );
    expect(converted.choices[0]).toStrictEqual({
      index: 0,
      message: { role: 'assistant', content: '{"city":"Paris"}' },
      finish_reason: 'stop',
      native_finish_reason: 'end_turn',
    });
    expect(converted.usage).toStrictEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  });

  it("keeps calls of the client's tools (and tool_calls as the reason), and a cut answer's length", () => {
    const both = convertJsonToolCompletion(
      completion(
        { role: 'assistant', content: 'Sure.', tool_calls: [call('a', 'get_weather', '{}'), call('b', JSON_TOOL_NAME, '{"x":1}')] },
        'tool_calls',
      ),
    );
    expect(both.choices[0]?.message).toStrictEqual({ role: 'assistant', content: '{"x":1}', tool_calls: [call('a', 'get_weather', '{}')] });
    expect(both.choices[0]?.finish_reason).toBe('tool_calls');
    const cut = convertJsonToolCompletion(
      completion({ role: 'assistant', content: null, tool_calls: [call('b', JSON_TOOL_NAME, '{"x"')] }, 'length'),
    );
    expect(cut.choices[0]?.finish_reason).toBe('length');
  });

  it('leaves an answer that called only client tools as it is', () => {
    const answer = completion({ role: 'assistant', content: null, tool_calls: [call('a', 'get_weather', '{}')] }, 'tool_calls');
    expect(convertJsonToolCompletion(answer)).toStrictEqual(answer);
  });
});

describe('convertJsonToolChunks', () => {
  const chunk = (
    delta: ChatCompletionChunk['choices'][number]['delta'],
    finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null,
  ) =>
    ({
      id: 'msg_1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'claude',
      choices: [{ index: 0, delta, finish_reason: finish }],
    }) as ChatCompletionChunk;
  async function collect(chunks: ChatCompletionChunk[]) {
    const out: ChatCompletionChunk[] = [];
    for await (const converted of convertJsonToolChunks(
      (async function* () {
        yield* chunks;
      })(),
    ))
      out.push(converted);
    return out;
  }

  it("streams the JSON tool's argument deltas as content deltas, and ends with stop", async () => {
    const out = await collect([
      chunk({ role: 'assistant' }),
      chunk({ tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: JSON_TOOL_NAME, arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      {
        ...chunk({}, 'tool_calls'),
        choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls', native_finish_reason: 'tool_use' }],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      },
    ]);
    expect(out.map((c) => c.choices[0]?.delta)).toStrictEqual([
      { role: 'assistant' },
      { content: '{"city":' },
      { content: '"Paris"}' },
      {},
    ]);
    expect(out.at(-1)?.choices[0]).toStrictEqual({ index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'end_turn' });
    expect(out.at(-1)?.usage?.total_tokens).toBe(7);
    expect(out.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('{"city":"Paris"}');
  });

  it("keeps the client's calls, their indexes closed up, and tool_calls as the reason; leaves text out", async () => {
    const out = await collect([
      chunk({ content: 'Let me see.' }),
      chunk({ tool_calls: [{ index: 0, id: 'j', type: 'function', function: { name: JSON_TOOL_NAME, arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'w', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(out.map((c) => c.choices[0]?.delta)).toStrictEqual([
      { content: '{}' },
      { tool_calls: [{ index: 0, id: 'w', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      {},
    ]);
    expect(out.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../protocol/chat.js';
import { convertToMessagesResponse, toolInputOf } from './convert-to-messages-response.js';

const completion = (
  message: ChatCompletion['choices'][number]['message'],
  finish: ChatCompletion['choices'][number]['finish_reason'],
  native?: string,
): ChatCompletion => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'upstream',
  system_fingerprint: null,
  choices: [{ index: 0, message, finish_reason: finish, ...(native ? { native_finish_reason: native } : {}) }],
  usage: {
    prompt_tokens: 120,
    completion_tokens: 30,
    total_tokens: 150,
    prompt_tokens_details: { cached_tokens: 80, cache_write_tokens: 10 },
  },
});

describe('convertToMessagesResponse', () => {
  it("answers with the gateway's id and model, the text, and Anthropic's usage (input without the cache's share)", () => {
    expect(
      convertToMessagesResponse(completion({ role: 'assistant', content: 'Hello' }, 'stop'), { id: 'gen-1', model: 'openai/gpt' }),
    ).toEqual({
      id: 'gen-1',
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt',
      content: [{ type: 'text', text: 'Hello' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 30, output_tokens: 30, cache_read_input_tokens: 80, cache_creation_input_tokens: 10 },
    });
  });

  it('orders thinking, text, then tool_use blocks, with the arguments as the input object', () => {
    const message = convertToMessagesResponse(
      completion(
        {
          role: 'assistant',
          content: 'Let me look.',
          reasoning: 'Needs the tool.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        'tool_calls',
      ),
      { id: 'gen-2', model: 'm' },
    );
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Needs the tool.', signature: '' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it.each([
    ['length', undefined, 'max_tokens'],
    ['content_filter', undefined, 'refusal'],
    ['stop', 'stop_sequence', 'stop_sequence'],
    ['stop', 'STOP', 'end_turn'],
    [null, undefined, 'end_turn'],
  ] as const)('maps finish %s (native %s) to stop_reason %s', (finish, native, expected) => {
    expect(
      convertToMessagesResponse(completion({ role: 'assistant', content: 'x' }, finish, native), { id: 'g', model: 'm' }).stop_reason,
    ).toBe(expected);
  });

  it('names the reported service tier as Anthropic does, and leaves out one it has no name for', () => {
    const tiered = (tier: string) =>
      convertToMessagesResponse({ ...completion({ role: 'assistant', content: 'x' }, 'stop'), service_tier: tier }, { id: 'g', model: 'm' })
        .usage.service_tier;
    expect(tiered('default')).toBe('standard');
    expect(tiered('priority')).toBe('priority');
    expect(tiered('flex')).toBeUndefined();
  });

  it('reads broken or non-object arguments as {}', () => {
    expect(toolInputOf('{"a":1}')).toEqual({ a: 1 });
    expect(toolInputOf('')).toEqual({});
    expect(toolInputOf('{"a":')).toEqual({});
    expect(toolInputOf('[1]')).toEqual({});
  });
});

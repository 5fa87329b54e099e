import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { readFixtureEvents } from '../shared/recorded-fixtures.testing.js';
import { convertOpenAIChatChunk } from './convert-openai-chat-chunk.js';
import type { OpenAIChatChunk } from './openai-chat-api-types.js';

function convertRecording(name: string): ChatCompletionChunk[] {
  return readFixtureEvents(name)
    .map((data) => convertOpenAIChatChunk(JSON.parse(data) as OpenAIChatChunk))
    .filter((chunk) => chunk !== undefined);
}

/** What a client rebuilds from the deltas of choice 0. */
function assemble(chunks: ChatCompletionChunk[]) {
  let content = '';
  let reasoning = '';
  const calls: { id?: string; type?: string; name: string; arguments: string }[] = [];
  for (const delta of chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta))) {
    content += delta.content ?? '';
    reasoning += delta.reasoning ?? '';
    for (const call of delta.tool_calls ?? []) {
      const target = (calls[call.index] ??= { name: '', arguments: '' });
      if (call.id) Object.assign(target, { id: call.id, type: call.type });
      target.name += call.function?.name ?? '';
      target.arguments += call.function?.arguments ?? '';
    }
  }
  const finish = chunks.flatMap((chunk) => chunk.choices).find((choice) => choice.finish_reason !== null);
  const usage = chunks.find((chunk) => chunk.usage)?.usage;
  return { content, reasoning, calls, finish_reason: finish?.finish_reason, native_finish_reason: finish?.native_finish_reason, usage };
}

describe('convertOpenAIChatChunk', () => {
  it('maps openai issue-15789-step-1: text, a no-argument tool call, the usage chunk, obfuscation dropped', () => {
    const chunks = convertRecording('openai/issue-15789-step-1.chunks.txt');
    expect(chunks).toHaveLength(7);
    expect(chunks[0]).toStrictEqual({
      id: 'chatcmpl-E6yvi7cuDcHZEHTMxcLDyf3CMKIO2',
      object: 'chat.completion.chunk',
      created: 1785332890,
      model: 'gpt-4o-2024-08-06',
      system_fingerprint: 'fp_627de6ad19',
      service_tier: 'default',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(assemble(chunks)).toEqual({
      content: 'PRE_TOOL',
      reasoning: '',
      calls: [{ id: 'call_NZa7xqfefoaMI2YYHowVXVlU', type: 'function', name: 'weather', arguments: '{}' }],
      finish_reason: 'tool_calls',
      native_finish_reason: 'tool_calls',
      usage: {
        prompt_tokens: 58,
        completion_tokens: 12,
        total_tokens: 70,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    });
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(JSON.stringify(chunks)).not.toContain('obfuscation');
  });

  it('maps azure-model-router: skips the leading prompt_filter_results chunk, drops filter results and null fingerprints', () => {
    const chunks = convertRecording('openai/azure-model-router.1.chunks.txt');
    expect(chunks).toHaveLength(7);
    expect(chunks.every((chunk) => chunk.id === 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt')).toBe(true);
    expect(chunks.every((chunk) => !('system_fingerprint' in chunk))).toBe(true);
    expect(chunks[1]?.choices[0]).toStrictEqual({ index: 0, delta: { content: 'Capital' }, finish_reason: null });
    expect(assemble(chunks)).toMatchObject({
      content: 'Capital of Denmark.',
      finish_reason: 'stop',
      usage: {
        prompt_tokens: 15,
        completion_tokens: 78,
        total_tokens: 93,
        completion_tokens_details: { reasoning_tokens: 64, audio_tokens: 0 },
      },
    });
    expect(JSON.stringify(chunks)).not.toMatch(/content_filter_results|prompt_filter_results|obfuscation/);
  });

  it('maps groq-tool-call: a whole tool call in one chunk, x_groq and timing fields dropped', () => {
    const chunks = convertRecording('openai/groq-tool-call.chunks.txt');
    expect(chunks[0]?.choices[0]?.delta).toStrictEqual({ role: 'assistant' });
    expect(assemble(chunks)).toEqual({
      content: '',
      reasoning: '',
      calls: [{ id: 'tk85n1k4m', type: 'function', name: 'weather', arguments: '{}' }],
      finish_reason: 'tool_calls',
      native_finish_reason: 'tool_calls',
      usage: { prompt_tokens: 210, completion_tokens: 15, total_tokens: 225 },
    });
    expect(JSON.stringify(chunks)).not.toMatch(/x_groq|queue_time/);
  });

  it('maps deepseek-tool-call: reasoning_content deltas and a tool call in many pieces', () => {
    const chunks = convertRecording('openai/deepseek-tool-call.chunks.txt');
    expect(chunks[1]?.choices[0]?.delta).toStrictEqual({ reasoning: 'The' });
    const assembled = assemble(chunks);
    expect(assembled.reasoning).toMatch(/^The user asks about the weather in San Francisco\./);
    expect(assembled.calls).toEqual([
      { id: 'call_00_IhCAliIHtM9gKpgfqbBV9873', type: 'function', name: 'weather', arguments: '{"location": "San Francisco"}' },
    ]);
    expect(assembled.finish_reason).toBe('tool_calls');
    expect(assembled.usage).toStrictEqual({
      prompt_tokens: 374,
      completion_tokens: 61,
      total_tokens: 435,
      prompt_tokens_details: { cached_tokens: 256 },
      completion_tokens_details: { reasoning_tokens: 17 },
    });
    expect(JSON.stringify(chunks)).not.toMatch(/reasoning_content|prompt_cache_hit_tokens/);
  });

  it('maps mistral-text: plain text deltas and usage on the finishing chunk', () => {
    const chunks = convertRecording('openai/mistral-text.chunks.txt');
    expect(chunks).toHaveLength(8);
    expect(assemble(chunks)).toEqual({
      content: 'Hello, world! This is a test response.',
      reasoning: '',
      calls: [],
      finish_reason: 'stop',
      native_finish_reason: 'stop',
      usage: { prompt_tokens: 13, completion_tokens: 8, total_tokens: 21 },
    });
  });

  it('maps mistral-reasoning: content arrays split into reasoning (thinking parts) and text', () => {
    const chunks = convertRecording('openai/mistral-reasoning.chunks.txt');
    expect(chunks[0]?.choices[0]?.delta).toStrictEqual({ role: 'assistant', reasoning: 'The user is asking' });
    expect(chunks[2]?.choices[0]?.delta).toStrictEqual({ content: '2 + 2 = 4' });
    expect(assemble(chunks)).toMatchObject({
      content: '2 + 2 = 4',
      reasoning: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.',
      finish_reason: 'stop',
    });
  });

  it('keeps an unknown finish reason as native and maps it to stop', () => {
    const chunk = convertOpenAIChatChunk({ id: 'x', choices: [{ index: 0, delta: {}, finish_reason: 'eos' }] });
    expect(chunk?.choices[0]).toMatchObject({ finish_reason: 'stop', native_finish_reason: 'eos' });
  });

  it('gives Mistral-style tool calls without index their position', () => {
    const chunk = convertOpenAIChatChunk({
      choices: [
        {
          delta: {
            tool_calls: [
              { id: 'a', function: { name: 'f', arguments: '{}' } },
              { id: 'b', function: { name: 'g', arguments: '{}' } },
            ],
          },
        },
      ],
    });
    expect(chunk?.choices[0]?.delta.tool_calls?.map((call) => [call.index, call.id, call.type])).toEqual([
      [0, 'a', 'function'],
      [1, 'b', 'function'],
    ]);
  });
});

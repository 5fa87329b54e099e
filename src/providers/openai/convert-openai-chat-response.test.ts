import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { convertOpenAIChatResponse } from './convert-openai-chat-response.js';
import type { OpenAIChatResponse } from './openai-chat-api-types.js';

const convertRecording = (name: string) => convertOpenAIChatResponse(readFixtureJson(name) as OpenAIChatResponse);

describe('convertOpenAIChatResponse', () => {
  it('maps openai-text: text, service tier, fingerprint and usage details', () => {
    const completion = convertRecording('openai/openai-text.json');
    expect({ ...completion, choices: undefined }).toStrictEqual({
      id: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU',
      object: 'chat.completion',
      created: 1770933883,
      model: 'gpt-4.1-nano-2025-04-14',
      system_fingerprint: 'fp_de604bd877',
      service_tier: 'default',
      choices: undefined,
      usage: {
        prompt_tokens: 16,
        completion_tokens: 363,
        total_tokens: 379,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    });
    expect(completion.choices).toHaveLength(1);
    const [choice] = completion.choices;
    expect(choice?.message.content).toMatch(/^\*\*Holiday Name:\*\* Galaxy Day/);
    expect(choice).toMatchObject({ index: 0, finish_reason: 'stop', native_finish_reason: 'stop' });
    expect(Object.keys(choice?.message ?? {})).toEqual(['role', 'content']);
  });

  it('maps deepseek-reasoning: reasoning_content becomes reasoning, cache hits become cached tokens', () => {
    const completion = convertRecording('openai/deepseek-reasoning.json');
    expect(completion.choices[0]?.message).toStrictEqual({
      role: 'assistant',
      content: 'There are **3** “r”s in **“strawberry”**.',
      reasoning: expect.stringMatching(/^We need answer simple\. Count r in strawberry\./),
    });
    expect(completion.usage).toStrictEqual({
      prompt_tokens: 97,
      completion_tokens: 131,
      total_tokens: 228,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 113 },
    });
    expect(completion.system_fingerprint).toBe('a26a7955944dc5c60445bff77fac9c8e');
    expect('service_tier' in completion).toBe(false);
  });

  it('maps mistral-tool-call: tool calls without type, no content, no fingerprint', () => {
    const completion = convertRecording('openai/mistral-tool-call.json');
    expect(completion.system_fingerprint).toBeNull();
    expect(completion.choices[0]).toStrictEqual({
      index: 0,
      finish_reason: 'tool_calls',
      native_finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'gSIMJiOkT', type: 'function', function: { name: 'weather', arguments: '{"location": "San Francisco"}' } }],
      },
    });
    expect(completion.usage).toStrictEqual({ prompt_tokens: 124, completion_tokens: 22, total_tokens: 146 });
  });

  it("splits Mistral's content parts in a whole message too", () => {
    const completion = convertOpenAIChatResponse({
      choices: [
        {
          finish_reason: 'stop',
          message: {
            content: [
              { type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] },
              { type: 'text', text: '4' },
            ],
          },
        },
      ],
    });
    expect(completion.choices[0]?.message).toStrictEqual({ role: 'assistant', content: '4', reasoning: 'hmm' });
  });
});

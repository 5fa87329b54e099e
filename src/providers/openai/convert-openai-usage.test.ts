import { describe, expect, it } from 'vitest';
import { convertOpenAIUsage } from './convert-openai-usage.js';

describe('convertOpenAIUsage', () => {
  it('keeps the OpenAI counts and details, without prediction counts', () => {
    expect(
      convertOpenAIUsage({
        prompt_tokens: 16,
        completion_tokens: 363,
        total_tokens: 379,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      }),
    ).toStrictEqual({
      prompt_tokens: 16,
      completion_tokens: 363,
      total_tokens: 379,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens when cached_tokens is missing", () => {
    expect(
      convertOpenAIUsage({ prompt_tokens: 374, completion_tokens: 61, total_tokens: 435, prompt_cache_hit_tokens: 256 }),
    ).toStrictEqual({ prompt_tokens: 374, completion_tokens: 61, total_tokens: 435, prompt_tokens_details: { cached_tokens: 256 } });
  });

  it('has no details objects when the host sends no details (Mistral)', () => {
    expect(convertOpenAIUsage({ prompt_tokens: 13, total_tokens: 21, completion_tokens: 8 })).toStrictEqual({
      prompt_tokens: 13,
      completion_tokens: 8,
      total_tokens: 21,
    });
  });

  it('computes a missing total', () => {
    expect(convertOpenAIUsage({ prompt_tokens: 2, completion_tokens: 3 }).total_tokens).toBe(5);
  });

  it('passes figures on as sent, to be checked, leaving out only those absent or null', () => {
    expect(
      convertOpenAIUsage({
        prompt_tokens: 15,
        completion_tokens: 'abc' as never,
        total_tokens: 1e308,
        prompt_tokens_details: { cached_tokens: -1_000_000_000, audio_tokens: null },
        completion_tokens_details: { reasoning_tokens: 'many' as never },
      }),
    ).toStrictEqual({
      prompt_tokens: 15,
      completion_tokens: 'abc',
      total_tokens: 1e308,
      prompt_tokens_details: { cached_tokens: -1_000_000_000 },
      completion_tokens_details: { reasoning_tokens: 'many' },
    });
  });
});

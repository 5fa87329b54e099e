import { describe, expect, it } from 'vitest';
import { sumUsage } from './sum-usage.js';

describe('sumUsage', () => {
  it('adds every count, the details field by field', () => {
    expect(
      sumUsage(
        { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } },
        {
          prompt_tokens: 20,
          completion_tokens: 3,
          total_tokens: 23,
          prompt_tokens_details: { cached_tokens: 1, audio_tokens: 2 },
          completion_tokens_details: { reasoning_tokens: 5 },
        },
      ),
    ).toEqual({
      prompt_tokens: 30,
      completion_tokens: 5,
      total_tokens: 35,
      prompt_tokens_details: { cached_tokens: 5, audio_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
  });

  it('keeps the one side that reported', () => {
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    expect(sumUsage(undefined, usage)).toBe(usage);
    expect(sumUsage(usage, undefined)).toBe(usage);
    expect(sumUsage(undefined, undefined)).toBeUndefined();
  });

  it('makes a sum with a figure that is no count none, for checkUsage to replace', () => {
    const good = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } };
    const bad = {
      prompt_tokens: 'abc',
      completion_tokens: -5,
      total_tokens: 1.5,
      prompt_tokens_details: { cached_tokens: 1e308 },
    } as never;
    for (const sum of [sumUsage(good, bad), sumUsage(bad, good)]) {
      expect(sum?.prompt_tokens).toBeNaN();
      expect(sum?.completion_tokens).toBeNaN();
      expect(sum?.total_tokens).toBeNaN();
      expect(sum?.prompt_tokens_details?.cached_tokens).toBeNaN();
    }
  });
});

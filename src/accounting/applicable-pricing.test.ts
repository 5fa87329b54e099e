import { describe, expect, it } from 'vitest';
import { applicablePricing } from './applicable-pricing.js';

const noon = new Date('2026-11-23T12:00:00Z');

describe('applicablePricing', () => {
  const pricing = {
    prompt: 1,
    completion: 2,
    input_cache_read: 0.1,
    overrides: [
      { min_prompt_tokens: 200_000, prompt: 5, completion: 10 },
      { min_prompt_tokens: 500_000, prompt: 7 },
    ],
  };

  it('keeps the base prices when no override applies', () => {
    expect(applicablePricing(pricing, 200_000, noon)).toBe(pricing);
  });

  it('applies an override strictly above min_prompt_tokens, keeping the keys it leaves out', () => {
    expect(applicablePricing(pricing, 200_001, noon)).toMatchObject({ prompt: 5, completion: 10, input_cache_read: 0.1 });
  });

  it('lets later applicable entries win per key', () => {
    expect(applicablePricing(pricing, 600_000, noon)).toMatchObject({ prompt: 7, completion: 10 });
  });

  it('applies a daily UTC window, half-open and wrapping past midnight', () => {
    const offPeak = { prompt: 1, completion: 2, overrides: [{ utc_start: 2230, utc_end: 430, prompt: 0.5 }] };
    const at = (time: string) => applicablePricing(offPeak, 10, new Date(`2026-11-23T${time}:00Z`)).prompt;
    expect(at('22:29')).toBe(1);
    expect(at('22:30')).toBe(0.5);
    expect(at('02:00')).toBe(0.5);
    expect(at('04:30')).toBe(1);
    const daytime = { prompt: 1, completion: 2, overrides: [{ utc_start: 900, utc_end: 1700, completion: 3 }] };
    expect(applicablePricing(daytime, 10, noon).completion).toBe(3);
    expect(applicablePricing(daytime, 10, new Date('2026-11-23T17:00:00Z')).completion).toBe(2);
  });

  it('needs every condition of an entry to match', () => {
    const both = { prompt: 1, completion: 2, overrides: [{ min_prompt_tokens: 100, utc_start: 0, utc_end: 600, prompt: 9 }] };
    expect(applicablePricing(both, 1000, noon).prompt).toBe(1);
    expect(applicablePricing(both, 10, new Date('2026-11-23T01:00:00Z')).prompt).toBe(1);
    expect(applicablePricing(both, 1000, new Date('2026-11-23T01:00:00Z')).prompt).toBe(9);
  });
});

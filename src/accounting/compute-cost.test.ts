import { describe, expect, it } from 'vitest';
import { computeCost } from './compute-cost.js';

const AT = new Date('2026-11-23T12:00:00Z');
const costAt = (pricing: Parameters<typeof computeCost>[0], usage: Parameters<typeof computeCost>[1]) => computeCost(pricing, usage, AT);

describe('computeCost', () => {
  const pricing = { prompt: 0.000001, completion: 0.000002 };

  it('prices prompt and completion tokens', () => {
    expect(costAt(pricing, { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 }).total).toBe(0.002);
  });

  it('adds the per-request price', () => {
    expect(costAt({ ...pricing, request: 0.01 }, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }).total).toBe(0.01);
  });

  it('prices images made at image and the tokens of images sent to be edited at image_token', () => {
    const images = { prompt: 0, completion: 0, image: 0.04, image_token: 0.00001 };
    expect(computeCost(images, undefined, AT, 1, { images: 2, imageTokens: 510 }).total).toBe(0.0851);
    expect(computeCost({ ...images, image_token: undefined }, undefined, AT, 1, { images: 1, imageTokens: 510 }).total).toBe(0.04);
  });

  it('prices cached reads and cache writes apart, falling back to the prompt price', () => {
    const usage = {
      prompt_tokens: 1000,
      completion_tokens: 0,
      total_tokens: 1000,
      prompt_tokens_details: { cached_tokens: 600, cache_write_tokens: 200 },
    };
    const priced = costAt({ ...pricing, input_cache_read: 0.0000001, input_cache_write: 0.00000125 }, usage);
    expect(priced.total).toBeCloseTo(200 * 0.000001 + 600 * 0.0000001 + 200 * 0.00000125, 12);
    expect(priced.cacheDiscount).toBeCloseTo(600 * (0.000001 - 0.0000001) + 200 * (0.000001 - 0.00000125), 12);
    expect(costAt(pricing, usage).total).toBe(0.001);
  });

  it('prices reasoning tokens at internal_reasoning when the endpoint sets it', () => {
    const usage = { prompt_tokens: 0, completion_tokens: 100, total_tokens: 100, completion_tokens_details: { reasoning_tokens: 40 } };
    expect(costAt(pricing, usage).total).toBeCloseTo(100 * 0.000002, 12);
    expect(costAt({ ...pricing, internal_reasoning: 0.000005 }, usage).total).toBeCloseTo(60 * 0.000002 + 40 * 0.000005, 12);
  });

  it('applies a discount', () => {
    expect(costAt({ ...pricing, discount: 0.5 }, { prompt_tokens: 1000, completion_tokens: 0, total_tokens: 1000 }).total).toBe(0.0005);
  });

  it('prices the searches the gateway ran at web_search', () => {
    const usage = {
      prompt_tokens: 1000,
      completion_tokens: 0,
      total_tokens: 1000,
      server_tool_use_details: { tool_calls_requested: 3, tool_calls_executed: 3, web_search_requests: 2 },
    };
    expect(costAt({ ...pricing, web_search: 0.004 }, usage).total).toBeCloseTo(1000 * pricing.prompt + 2 * 0.004, 12);
    expect(costAt(pricing, usage).total).toBeCloseTo(1000 * pricing.prompt, 12);
  });

  it('counts figures billing cannot take as none, so that a cost is always finite and ≥ 0', () => {
    const bad = { prompt_tokens: 15, completion_tokens: 1e308, total_tokens: 15, prompt_tokens_details: { cached_tokens: -1_000_000_000 } };
    expect(costAt({ ...pricing, input_cache_read: 0.0000009 }, bad).total).toBe(0.000015);
    expect(costAt(pricing, { prompt_tokens: 'abc', completion_tokens: NaN, total_tokens: 0 } as never).total).toBe(0);
    expect(costAt({ ...pricing, discount: 2 }, { prompt_tokens: 1000, completion_tokens: 0, total_tokens: 1000 }).total).toBe(0);
  });

  it('costs nothing without usage or prices', () => {
    expect(costAt({ prompt: 0, completion: 0 }, undefined).total).toBe(0);
  });

  it('prices a long prompt at the endpoint’s override', () => {
    const longContext = { ...pricing, overrides: [{ min_prompt_tokens: 1000, prompt: 0.000003 }] };
    expect(costAt(longContext, { prompt_tokens: 1000, completion_tokens: 0, total_tokens: 1000 }).total).toBe(0.001);
    expect(costAt(longContext, { prompt_tokens: 2000, completion_tokens: 10, total_tokens: 2010 }).total).toBeCloseTo(
      2000 * 0.000003 + 10 * 0.000002,
      12,
    );
  });
});

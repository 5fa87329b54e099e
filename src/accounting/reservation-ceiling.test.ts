import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCost } from './compute-cost.js';
import { chatCeiling, completionBound, DEFAULT_COMPLETION_TOKENS, inputCeiling } from './reservation-ceiling.js';

const at = new Date('2026-11-21T12:00:00.000Z');
const cheap = { pricing: { prompt: 0.000001, completion: 0.000002 } };
const dear = { pricing: { prompt: 0.00001, completion: 0.00003 } };

describe('completionBound', () => {
  it("takes the request's max_tokens, never past the endpoint's maximum completion nor its context window", () => {
    expect(completionBound({ ...cheap, maxCompletionTokens: 1000 }, 50, 200)).toBe(200);
    expect(completionBound({ ...cheap, maxCompletionTokens: 1000 }, 50, 5000)).toBe(1000);
    expect(completionBound({ ...cheap, contextLength: 1000 }, 900, 5000)).toBe(100);
  });

  it("falls back to the endpoint's maximum completion, then what its context leaves, then the default", () => {
    expect(completionBound({ ...cheap, maxCompletionTokens: 1000, contextLength: 100_000 }, 50, undefined)).toBe(1000);
    expect(completionBound({ ...cheap, contextLength: 8000 }, 3000, undefined)).toBe(5000);
    expect(completionBound(cheap, 3000, undefined)).toBe(DEFAULT_COMPLETION_TOKENS);
  });
});

describe('chatCeiling', () => {
  it('prices the prompt and the completion bound on the dearest endpoint of the plan', () => {
    const ceiling = chatCeiling({ promptTokens: 100, maxTokens: 50, endpoints: [cheap, dear], at });
    expect(ceiling.usd).toBeCloseTo(100 * 0.00001 + 50 * 0.00003, 12);
    expect(ceiling.tokens?.requested).toBe(50);
  });

  it('counts the dearer of the prompt and cache-write prices, of completion and reasoning, the request price and the searches made', () => {
    const pricing = {
      prompt: 0.000001,
      completion: 0.000002,
      input_cache_write: 0.000004,
      internal_reasoning: 0.000008,
      request: 0.01,
      web_search: 0.02,
    };
    const ceiling = chatCeiling({ promptTokens: 10, maxTokens: 10, endpoints: [{ pricing }], webSearches: 2, at });
    expect(ceiling.usd).toBeCloseTo(10 * 0.000004 + 10 * 0.000008 + 0.01 + 2 * 0.02, 12);
  });

  it('applies long-context prices and the discount as the bill will', () => {
    const pricing = { prompt: 0.000001, completion: 0.000002, discount: 0.5, overrides: [{ min_prompt_tokens: 1000, prompt: 0.000003 }] };
    expect(chatCeiling({ promptTokens: 2000, maxTokens: 10, endpoints: [{ pricing }], at }).usd).toBeCloseTo(
      (2000 * 0.000003 + 10 * 0.000002) * 0.5,
      12,
    );
  });

  it('says how many completion tokens a smaller budget affords with the same prompt', () => {
    const ceiling = chatCeiling({ promptTokens: 100, maxTokens: 1000, endpoints: [dear], at });
    // $0.001 pays the prompt ($0.001) and nothing more; $0.004 pays the prompt and 100 tokens.
    expect(ceiling.tokens?.affordable(0.001)).toBe(0);
    expect(ceiling.tokens?.affordable(0.004)).toBe(100);
    expect(ceiling.tokens?.affordable(0.0005)).toBe(0);
    expect(ceiling.tokens?.affordable(1)).toBe(1000);
  });

  it('is never below what the bill can be for any usage within the bound (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.record({
          prompt: fc.double({ min: 0, max: 0.001, noNaN: true }),
          completion: fc.double({ min: 0, max: 0.001, noNaN: true }),
          input_cache_read: fc.double({ min: 0, max: 0.001, noNaN: true }),
          input_cache_write: fc.double({ min: 0, max: 0.001, noNaN: true }),
          internal_reasoning: fc.double({ min: 0, max: 0.001, noNaN: true }),
          request: fc.double({ min: 0, max: 0.1, noNaN: true }),
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (promptTokens, maxTokens, pricing, cachedShare, reasoningShare) => {
          const ceiling = chatCeiling({ promptTokens, maxTokens, endpoints: [{ pricing }], at });
          const cached = Math.floor(promptTokens * cachedShare);
          const usage = {
            prompt_tokens: promptTokens,
            completion_tokens: maxTokens,
            total_tokens: promptTokens + maxTokens,
            prompt_tokens_details: { cache_write_tokens: cached },
            completion_tokens_details: { reasoning_tokens: Math.floor(maxTokens * reasoningShare) },
          };
          expect(computeCost(pricing, usage, at).total).toBeLessThanOrEqual(ceiling.usd + 1e-12);
        },
      ),
    );
  });
});

describe('inputCeiling', () => {
  it('prices the search units and tokens on the dearest endpoint', () => {
    const endpoints = [{ pricing: { prompt: 0, completion: 0, request: 0.002 } }, { pricing: { prompt: 0.0000001, completion: 0 } }];
    expect(inputCeiling({ tokens: 1000, requests: 2, endpoints, at }).usd).toBeCloseTo(0.004, 12);
    expect(inputCeiling({ tokens: 100_000, requests: 1, endpoints, at }).usd).toBeCloseTo(0.01, 12);
  });
});

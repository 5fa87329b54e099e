import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pricing } from '../catalog/types.js';
import { isCount, reportedCount } from '../protocol/usage-counts.js';
import { checkUsage, checkVideoSeconds, tokenCapacity, type UsageBounds } from './check-usage.js';
import { computeCost } from './compute-cost.js';

const bounds: UsageBounds = {
  maxPromptTokens: 128_000,
  maxCompletionTokens: 16_384,
  answerCapacity: tokenCapacity(60),
  mayHideTokens: false,
};
const local = { prompt: 11, completion: 4 };
const sane = { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 };

describe('checkUsage', () => {
  it('takes sane figures as reported, without asking for a local count', () => {
    const reported = {
      ...sane,
      prompt_tokens_details: { cached_tokens: 6, cache_write_tokens: 5, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0 },
      server_tool_use_details: { tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 1 },
    };
    expect(checkUsage(reported, bounds)).toEqual({ usage: reported, estimated: false });
  });

  it.each([
    ['no usage', undefined],
    ['a usage that is not an object', 'lots'],
    ['a negative prompt', { ...sane, prompt_tokens: -5 }],
    ['a fractional completion', { ...sane, completion_tokens: 3.5 }],
    ['a prompt that is text', { ...sane, prompt_tokens: 'abc' }],
    ['a prompt of 1e308', { ...sane, prompt_tokens: 1e308 }],
    ['an infinite completion', { ...sane, completion_tokens: Infinity }],
    ['a NaN prompt', { ...sane, prompt_tokens: NaN }],
    ['a prompt of zero tokens', { ...sane, prompt_tokens: 0 }],
    ['a prompt beyond the context window', { ...sane, prompt_tokens: 128_001 }],
    ['a completion beyond the longest', { ...sane, completion_tokens: 16_385 }],
    ['a completion far beyond what its text could hold', { ...sane, completion_tokens: tokenCapacity(60) + 1 }],
  ])('needs a local count for %s', (_, reported) => {
    expect(checkUsage(reported, bounds)).toBeUndefined();
  });

  it('replaces the prompt or the completion that cannot be billed with the local count, and keeps the other', () => {
    expect(checkUsage({ ...sane, prompt_tokens: 'abc' }, bounds, { prompt: 30, completion: 99 })).toEqual({
      usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
      estimated: true,
    });
    expect(checkUsage({ ...sane, completion_tokens: 1e308 }, bounds, { prompt: 99, completion: 7 })).toEqual({
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
      estimated: true,
    });
    expect(checkUsage(undefined, bounds, local)).toEqual({
      usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
      estimated: true,
    });
  });

  it('drops cached tokens that are negative or more than the prompt (the $900 answer)', () => {
    const negative = checkUsage({ ...sane, prompt_tokens_details: { cached_tokens: -1_000_000_000 } }, bounds);
    expect(negative).toEqual({ usage: sane, estimated: true });
    expect(checkUsage({ ...sane, prompt_tokens_details: { cached_tokens: 12 } }, bounds)).toEqual({ usage: sane, estimated: true });
    // Cache reads and writes together within the prompt: the write that does not fit is dropped.
    expect(checkUsage({ ...sane, prompt_tokens_details: { cached_tokens: 8, cache_write_tokens: 4 } }, bounds)).toEqual({
      usage: { ...sane, prompt_tokens_details: { cached_tokens: 8 } },
      estimated: true,
    });
  });

  it('drops reasoning tokens that are more than the completion', () => {
    expect(checkUsage({ ...sane, completion_tokens_details: { reasoning_tokens: 5 } }, bounds)).toEqual({ usage: sane, estimated: true });
  });

  it('sets aside reported reasoning, audio and image tokens before bounding the completion by its text', () => {
    const hidden = { ...sane, completion_tokens: 5_000, total_tokens: 5_011, completion_tokens_details: { reasoning_tokens: 4_990 } };
    expect(checkUsage(hidden, bounds)).toEqual({ usage: hidden, estimated: false });
    const image = { ...sane, completion_tokens: 1_300, total_tokens: 1_311, completion_tokens_details: { image_tokens: 1_290 } };
    expect(checkUsage(image, bounds)).toEqual({ usage: image, estimated: false });
  });

  it('bounds the completion of a model that may reason unseen by its longest completion only, unless it counts its reasoning', () => {
    const reasoner = { ...bounds, mayHideTokens: true };
    const summarized = { ...sane, completion_tokens: 9_000, total_tokens: 9_011 };
    expect(checkUsage(summarized, reasoner)).toEqual({ usage: summarized, estimated: false });
    expect(checkUsage({ ...summarized, completion_tokens_details: { reasoning_tokens: 10 } }, reasoner)).toBeUndefined();
    expect(checkUsage({ ...sane, completion_tokens: 16_385 }, reasoner)).toBeUndefined();
  });

  it('keeps a total the upstream gave when it can be one, and otherwise adds it up', () => {
    expect(checkUsage({ ...sane, total_tokens: 40 }, bounds)).toEqual({ usage: { ...sane, total_tokens: 40 }, estimated: false });
    expect(checkUsage({ ...sane, total_tokens: -1 }, bounds)).toEqual({ usage: sane, estimated: true });
    expect(checkUsage({ prompt_tokens: 11, completion_tokens: 4 }, bounds)).toEqual({ usage: sane, estimated: false });
  });

  it('counts server-tool figures that are no count as none', () => {
    const reported = { ...sane, server_tool_use_details: { tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: -3 } };
    expect(checkUsage(reported, bounds)).toEqual({
      usage: { ...sane, server_tool_use_details: { tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 0 } },
      estimated: true,
    });
  });
});

describe('reportedCount', () => {
  it('adds a left-out part as 0 and makes a sum with a part that is no count none', () => {
    expect(reportedCount(undefined) + reportedCount(null) + reportedCount(7)).toBe(7);
    for (const bad of [-1, 1.5, 'abc', 1e308]) expect(isCount(reportedCount(bad) + 10)).toBe(false);
  });
});

/** Anything an upstream could put where a count goes. */
const arbFigure = fc.oneof(
  fc.nat({ max: 200_000 }),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
  fc.double(),
  fc.constantFrom(1e308, -1e308, Infinity, -Infinity, NaN, Number.MAX_SAFE_INTEGER + 2, -0, null, undefined, 'abc', '12', true, {}, []),
);
const arbDetails = (fields: string[]) =>
  fc.option(fc.record(Object.fromEntries(fields.map((f) => [f, arbFigure])), { requiredKeys: [] }), { nil: undefined });
const arbReported = fc.oneof(
  fc.record(
    {
      prompt_tokens: arbFigure,
      completion_tokens: arbFigure,
      total_tokens: arbFigure,
      prompt_tokens_details: arbDetails(['cached_tokens', 'cache_write_tokens', 'audio_tokens']),
      completion_tokens_details: arbDetails(['reasoning_tokens', 'audio_tokens', 'image_tokens']),
      server_tool_use_details: arbDetails(['tool_calls_requested', 'tool_calls_executed', 'web_search_requests']),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const arbBounds = fc.record({
  maxPromptTokens: fc.integer({ min: 1, max: 10_000_000 }),
  maxCompletionTokens: fc.integer({ min: 1, max: 1_000_000 }),
  answerCapacity: fc.nat({ max: 1_000_000 }),
  mayHideTokens: fc.boolean(),
});
const arbLocal = fc.record({ prompt: fc.nat({ max: 1_000_000 }), completion: fc.nat({ max: 1_000_000 }) });
const arbPricing: fc.Arbitrary<Pricing> = fc.record(
  {
    prompt: fc.double({ min: 0, max: 1e-3, noNaN: true }),
    completion: fc.double({ min: 0, max: 1e-3, noNaN: true }),
    request: fc.double({ min: 0, max: 1, noNaN: true }),
    input_cache_read: fc.double({ min: 0, max: 1e-3, noNaN: true }),
    input_cache_write: fc.double({ min: 0, max: 1e-3, noNaN: true }),
    internal_reasoning: fc.double({ min: 0, max: 1e-3, noNaN: true }),
    web_search: fc.double({ min: 0, max: 0.1, noNaN: true }),
    discount: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: ['prompt', 'completion'] },
);

describe('checkUsage, for any reported usage', () => {
  it('bills whole counts ≥ 0 that fit together and their bounds, at a finite cost ≥ 0', () => {
    fc.assert(
      fc.property(arbReported, arbBounds, arbLocal, arbPricing, (reported, b, counts, pricing) => {
        const { usage } = checkUsage(reported, b, counts);
        const figures = [
          usage.prompt_tokens,
          usage.completion_tokens,
          usage.total_tokens,
          ...Object.values(usage.prompt_tokens_details ?? {}),
          ...Object.values(usage.completion_tokens_details ?? {}),
          ...Object.values(usage.server_tool_use_details ?? {}),
        ];
        for (const figure of figures) expect(isCount(figure)).toBe(true);
        expect(usage.prompt_tokens === counts.prompt || usage.prompt_tokens <= b.maxPromptTokens).toBe(true);
        expect(usage.completion_tokens === counts.completion || usage.completion_tokens <= b.maxCompletionTokens).toBe(true);
        const cached = (usage.prompt_tokens_details?.cached_tokens ?? 0) + (usage.prompt_tokens_details?.cache_write_tokens ?? 0);
        expect(cached).toBeLessThanOrEqual(usage.prompt_tokens);
        expect(usage.completion_tokens_details?.reasoning_tokens ?? 0).toBeLessThanOrEqual(usage.completion_tokens);
        const cost = computeCost(pricing, usage, new Date('2026-11-24T00:00:00Z'));
        expect(Number.isFinite(cost.total) && cost.total >= 0).toBe(true);
        expect(Number.isFinite(cost.cacheDiscount)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('asks for a local count exactly when it would replace a figure, and answers the same with one', () => {
    fc.assert(
      fc.property(arbReported, arbBounds, arbLocal, (reported, b, counts) => {
        const trusted = checkUsage(reported, b);
        const counted = checkUsage(reported, b, counts);
        if (trusted) expect(counted).toEqual(trusted);
        else expect(counted.estimated).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes its own answer as it is: billed usage checks again unchanged', () => {
    fc.assert(
      fc.property(arbReported, arbBounds, arbLocal, (reported, b, counts) => {
        const { usage } = checkUsage(reported, b, counts);
        const within = {
          ...b,
          maxPromptTokens: Math.max(b.maxPromptTokens, usage.prompt_tokens),
          maxCompletionTokens: Math.max(b.maxCompletionTokens, usage.completion_tokens),
        };
        const again = checkUsage(usage, { ...within, answerCapacity: Math.max(b.answerCapacity, usage.completion_tokens) }, counts);
        if (usage.prompt_tokens >= 1) expect(again).toEqual({ usage, estimated: false });
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('computeCost, for any usage at all', () => {
  it('is a finite amount ≥ 0', () => {
    fc.assert(
      fc.property(arbReported, arbPricing, (usage, pricing) => {
        const cost = computeCost(pricing, usage as never, new Date('2026-11-24T00:00:00Z'));
        expect(Number.isFinite(cost.total) && cost.total >= 0).toBe(true);
        expect(Number.isFinite(cost.cacheDiscount)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('checkVideoSeconds', () => {
  const asked = { seconds: 8, defaultSeconds: 4, longestSeconds: 12 };

  it('bills the seconds reported when they can be what was asked', () => {
    expect(checkVideoSeconds(8, asked)).toEqual({ seconds: 8, estimated: false });
    expect(checkVideoSeconds(7.5, asked)).toEqual({ seconds: 7.5, estimated: false });
    expect(checkVideoSeconds(12, { ...asked, seconds: undefined })).toEqual({ seconds: 12, estimated: false });
  });

  it.each([
    ['more than asked', 9, asked, 8],
    ['a million', 1_000_000, asked, 8],
    ['1e308, no duration asked', 1e308, { ...asked, seconds: undefined }, 4],
    ['more than the model makes', 13, { ...asked, seconds: undefined }, 4],
    ['none', null, asked, 8],
    ['zero', 0, asked, 8],
    ['negative', -8, asked, 8],
    ['text', '8', asked, 8],
    ['NaN', NaN, asked, 8],
  ])('bills the seconds asked, else the default, when the upstream reports %s', (_, reported, videoAsked, billed) => {
    expect(checkVideoSeconds(reported, videoAsked)).toEqual({ seconds: billed, estimated: true });
  });
});

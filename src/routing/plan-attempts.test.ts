import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../catalog/types.js';
import type { FilterableEndpoint } from './endpoint-filters.js';
import { exclusionOf } from './endpoint-filters.js';
import { summarize } from './endpoint-stats.js';
import { endpointKey, type PlanInput, type PlannableModel, planAttempts, requestedModels } from './plan-attempts.js';
import { readProviderPreferences } from './provider-preferences.js';

type E = FilterableEndpoint;
const ep = (provider: string, perMillion = 1, facts: Partial<Endpoint> = {}): E => ({
  provider,
  pricing: { prompt: perMillion / 1e6, completion: perMillion / 1e6 },
  ...facts,
});
const catalog: Record<string, PlannableModel<E>> = {
  'acme/fast': { id: 'acme/fast', endpoints: [ep('a'), ep('b'), ep('c')] },
  'acme/slow': { id: 'acme/slow', endpoints: [ep('b')] },
  'acme/cached': {
    id: 'acme/cached',
    endpoints: [
      ep('a', 2, { pricing: { prompt: 2e-6, completion: 2e-6, input_cache_read: 0.2e-6 } }),
      ep('b', 1),
      ep('c', 1.5, { pricing: { prompt: 1.5e-6, completion: 1.5e-6, input_cache_read: 1.2e-6 } }),
    ],
  },
  'acme/mixed': {
    id: 'acme/mixed',
    endpoints: [
      ep('a', 3, { quantization: 'fp8', dataCollection: 'allow', supportedParameters: ['temperature'] }),
      ep('b', 1, {
        quantization: 'fp16',
        dataCollection: 'deny',
        zdr: true,
        distillable: true,
        supportedParameters: ['temperature', 'tools'],
      }),
      ep('c', 2, { quantization: 'int4', dataCollection: 'deny', zdr: false, supportedServiceTiers: ['default', 'flex'] }),
    ],
  },
};
const lookup = (id: string) => catalog[id];
const fixed = () => 0.5;
const plan = (input: Partial<PlanInput<E>> & { provider?: Record<string, unknown> }) =>
  planAttempts({ requested: ['acme/fast'], lookup, random: fixed, ...input, preferences: readProviderPreferences(input.provider) });
const order = (p: ReturnType<typeof plan>) => p.attempts.map((a) => `${a.modelId}@${a.endpoint.provider}`);
const figures = (ttftS: number, throughput: number) => ({
  samples: 1,
  latencyMs: summarize([ttftS * 1000]),
  ttftMs: summarize([ttftS * 1000]),
  throughput: summarize([throughput]),
});

describe('planAttempts without preferences', () => {
  it('tries each endpoint of the model (catalog order on equal prices), then the fallback models', () => {
    expect(order(plan({ requested: ['acme/fast', 'acme/slow'] }))).toEqual(['acme/fast@a', 'acme/fast@b', 'acme/fast@c', 'acme/slow@b']);
  });

  it('puts the session’s provider first', () => {
    const p = plan({ stickyProvider: 'c' });
    expect(order(p)).toEqual(['acme/fast@c', 'acme/fast@a', 'acme/fast@b']);
    expect(p.strategy).toBe('session');
  });

  it('ignores stickiness to an unhealthy provider and puts unhealthy providers last', () => {
    const p = plan({ stickyProvider: 'a', unhealthy: new Set(['acme/fast@a']) });
    expect(order(p)).toEqual(['acme/fast@b', 'acme/fast@c', 'acme/fast@a']);
    expect(p.candidates.find((c) => c.provider === 'a')).toMatchObject({
      decision: 'reordered',
      reason: expect.stringContaining('failed in the last 30 s'),
    });
  });

  it('reports unknown models and plans the known ones', () => {
    const p = plan({ requested: ['nope/x', 'acme/slow'] });
    expect(p.unknownModels).toEqual(['nope/x']);
    expect(order(p)).toEqual(['acme/slow@b']);
  });

  it('demotes an unhealthy endpoint of one model only', () => {
    expect(order(plan({ requested: ['acme/fast', 'acme/slow'], unhealthy: new Set(['acme/fast@b']) }))).toEqual([
      'acme/fast@a',
      'acme/fast@c',
      'acme/fast@b',
      'acme/slow@b',
    ]);
  });

  it('never repeats a model and provider pair', () => {
    expect(order(plan({ requested: ['acme/slow', 'acme/slow'] }))).toEqual(['acme/slow@b']);
  });

  it('load-balances by the inverse square of the price', () => {
    // mixed: a $3, b $1, c $2 per M each way: weights 1/9 : 1 : 1/4.
    const firsts: Record<string, number> = {};
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 4000; i++) {
      const first = planAttempts({ requested: ['acme/mixed'], lookup, random }).attempts[0]!.endpoint.provider;
      firsts[first] = (firsts[first] ?? 0) + 1;
    }
    const total = 1 / 9 + 1 + 1 / 4;
    expect(firsts.b! / 4000).toBeCloseTo(1 / total, 1);
    expect(firsts.c! / 4000).toBeCloseTo(0.25 / total, 1);
    expect(firsts.a! / 4000).toBeCloseTo(1 / 9 / total, 1);
  });
});

describe('planAttempts with prompt-cache stickiness', () => {
  const cached = (provider: string, more: Partial<PlanInput<E>> & { provider?: Record<string, unknown> } = {}) =>
    plan({ requested: ['acme/cached'], cachedProviders: new Map([['acme/cached', provider]]), ...more });
  const cases: {
    name: string;
    cachedAt: string;
    more?: Partial<PlanInput<E>> & { provider?: Record<string, unknown> };
    expected: string[];
    strategy: string;
    reason?: [string, string];
  }[] = [
    { name: 'no pin: cheapest first', cachedAt: 'none', expected: ['b', 'c', 'a'], strategy: 'fallback' },
    {
      name: 'the cache holder first while its cache read is cheaper',
      cachedAt: 'a',
      expected: ['a', 'b', 'c'],
      strategy: 'cache',
      reason: ['a', '(cache read $0.2/M < cheapest prompt $1/M): first'],
    },
    {
      name: 'not when its cache read is dearer than an uncached prompt elsewhere',
      cachedAt: 'c',
      expected: ['b', 'c', 'a'],
      strategy: 'fallback',
      reason: ['c', 'its cache read $1.2/M is not below the cheapest prompt $1/M'],
    },
    {
      name: 'not without a cache-read price',
      cachedAt: 'b',
      expected: ['b', 'c', 'a'],
      strategy: 'fallback',
      reason: ['b', 'has no cache-read price'],
    },
    {
      name: 'not when it failed lately',
      cachedAt: 'a',
      more: { unhealthy: new Set(['acme/cached@a']) },
      expected: ['b', 'c', 'a'],
      strategy: 'fallback',
      reason: ['a', 'but failed lately'],
    },
    { name: 'after the session’s provider', cachedAt: 'a', more: { stickyProvider: 'c' }, expected: ['c', 'a', 'b'], strategy: 'session' },
    {
      name: 'provider.order overrides it',
      cachedAt: 'a',
      more: { provider: { order: ['c'] } },
      expected: ['c', 'a', 'b'],
      strategy: 'order',
    },
    {
      name: 'provider.sort overrides it',
      cachedAt: 'a',
      more: { provider: { sort: 'price' } },
      expected: ['b', 'c', 'a'],
      strategy: 'sort',
    },
  ];
  it.each(cases)('$name', ({ cachedAt, more, expected, strategy, reason }) => {
    const p = cached(cachedAt, more);
    expect(p.attempts.map((a) => a.endpoint.provider)).toEqual(expected);
    expect(p.strategy).toBe(strategy);
    if (reason) expect(p.candidates.find((c) => c.provider === reason[0])?.reason).toContain(reason[1]);
  });
});

describe('planAttempts with provider preferences', () => {
  const cases: {
    name: string;
    provider: Record<string, unknown>;
    parameters?: string[];
    serviceTier?: 'flex';
    expected: string[];
    dropped?: Record<string, string>;
  }[] = [
    { name: 'only', provider: { only: ['B', 'c'] }, expected: ['b', 'c'], dropped: { a: 'provider.only' } },
    { name: 'ignore', provider: { ignore: ['b'] }, expected: ['c', 'a'], dropped: { b: 'provider.ignore' } },
    { name: 'order', provider: { order: ['c', 'a'] }, expected: ['c', 'a', 'b'] },
    {
      name: 'order without fallbacks',
      provider: { order: ['c', 'a'], allow_fallbacks: false },
      expected: ['c', 'a'],
      dropped: { b: 'provider.allow_fallbacks' },
    },
    {
      name: 'no fallbacks: the first choice only',
      provider: { allow_fallbacks: false },
      expected: ['b'],
      dropped: { a: 'provider.allow_fallbacks', c: 'provider.allow_fallbacks' },
    },
    { name: 'quantizations', provider: { quantizations: ['fp8', 'int4'] }, expected: ['c', 'a'], dropped: { b: 'provider.quantizations' } },
    {
      name: 'data_collection deny',
      provider: { data_collection: 'deny' },
      expected: ['b', 'c'],
      dropped: { a: 'provider.data_collection' },
    },
    { name: 'zdr', provider: { zdr: true }, expected: ['b'], dropped: { a: 'provider.zdr', c: 'provider.zdr' } },
    {
      name: 'enforce_distillable_text',
      provider: { enforce_distillable_text: true },
      expected: ['b'],
      dropped: { c: 'provider.enforce_distillable_text' },
    },
    {
      name: 'require_parameters',
      provider: { require_parameters: true },
      parameters: ['tools'],
      expected: ['b', 'c'],
      dropped: { a: 'provider.require_parameters' },
    },
    { name: 'parameters without require_parameters', provider: {}, parameters: ['tools'], expected: ['b', 'c', 'a'] },
    {
      name: 'require_parameters with a service tier',
      provider: { require_parameters: true },
      serviceTier: 'flex',
      expected: ['c'],
      dropped: { a: 'does not support service_tier flex', b: 'does not support service_tier flex' },
    },
    { name: 'a service tier without require_parameters', provider: {}, serviceTier: 'flex', expected: ['b', 'c', 'a'] },
    {
      name: 'max_price per million tokens',
      provider: { max_price: { prompt: '2.5' } },
      expected: ['b', 'c'],
      dropped: { a: 'provider.max_price' },
    },
    { name: 'max_price per request', provider: { max_price: { request: 0 } }, expected: ['b', 'c', 'a'] },
    { name: 'sort by price', provider: { sort: 'price' }, expected: ['b', 'c', 'a'] },
  ];
  it.each(cases)('$name', ({ provider, parameters, serviceTier, expected, dropped }) => {
    const p = plan({ requested: ['acme/mixed'], provider, parameters: parameters ?? [], serviceTier });
    expect(p.attempts.map((a) => a.endpoint.provider)).toEqual(expected);
    for (const [name, rule] of Object.entries(dropped ?? {}))
      expect(p.candidates.find((c) => c.provider === name)).toMatchObject({ decision: 'dropped', reason: expect.stringContaining(rule) });
    expect(p.candidates).toHaveLength(3);
  });

  it('says where a service tier not offered is sent without it', () => {
    const p = plan({ requested: ['acme/mixed'], serviceTier: 'flex' });
    expect(p.candidates.find((c) => c.provider === 'b')?.reason).toContain('service_tier flex not offered: sent without it');
    expect(p.candidates.find((c) => c.provider === 'c')?.reason).not.toContain('service_tier');
  });

  it('sorts by measured throughput and latency, unmeasured last', () => {
    const stats: Record<string, ReturnType<typeof figures>> = { 'acme/fast@b': figures(2, 50), 'acme/fast@c': figures(1, 20) };
    const p = (by: string) => plan({ provider: { sort: by }, figures: (k) => stats[k] });
    expect(order(p('throughput'))).toEqual(['acme/fast@b', 'acme/fast@c', 'acme/fast@a']);
    expect(order(p('latency'))).toEqual(['acme/fast@c', 'acme/fast@b', 'acme/fast@a']);
    expect(p('latency').strategy).toBe('sort');
  });

  it('sorts across models with partition "none", keeps fallback models last by default', () => {
    const requested = ['acme/mixed', 'acme/fast'];
    expect(order(plan({ requested, provider: { sort: 'price' } }))[0]).toBe('acme/mixed@b');
    expect(order(plan({ requested, provider: { sort: { by: 'price', partition: 'none' } } })).slice(0, 2)).toEqual([
      'acme/mixed@b',
      'acme/fast@a',
    ]);
  });

  it('moves endpoints that miss preferred_max_latency / preferred_min_throughput after the rest, even across models', () => {
    const stats: Record<string, ReturnType<typeof figures>> = { 'acme/fast@a': figures(9, 100), 'acme/fast@b': figures(1, 5) };
    const latency = plan({ requested: ['acme/fast', 'acme/slow'], provider: { preferred_max_latency: 5 }, figures: (k) => stats[k] });
    expect(order(latency)).toEqual(['acme/fast@b', 'acme/fast@c', 'acme/slow@b', 'acme/fast@a']);
    expect(latency.candidates.find((c) => c.provider === 'a')?.reason).toContain('provider.preferred_max_latency: p50 9 s > 5 s');
    const throughput = plan({ provider: { preferred_min_throughput: { p90: 10 } }, figures: (k) => stats[k] });
    expect(order(throughput)).toEqual(['acme/fast@a', 'acme/fast@c', 'acme/fast@b']);
  });

  it('says which preference removed the last candidate when none is left', () => {
    const p = plan({ requested: ['acme/mixed'], provider: { only: ['a', 'c'], zdr: true } });
    expect(p.attempts).toEqual([]);
    expect(p.noEndpoint).toMatch(/provider\.zdr removed the last candidate \(c: no zero data retention\)/);
  });
});

describe('filters (property)', () => {
  const providers = ['a', 'b', 'c', 'd', 'e'];
  const arbEndpoint = fc.record({
    provider: fc.constantFrom(...providers),
    pricing: fc.record({
      prompt: fc.double({ min: 0, max: 1e-4, noNaN: true }),
      completion: fc.double({ min: 0, max: 1e-4, noNaN: true }),
    }),
    quantization: fc.constantFrom('fp8', 'fp16', 'int4'),
    dataCollection: fc.constantFrom('allow' as const, 'deny' as const),
    zdr: fc.boolean(),
    distillable: fc.boolean(),
    supportedParameters: fc.subarray(['temperature', 'tools', 'max_tokens']),
    supportedServiceTiers: fc.subarray(['default', 'flex', 'priority'] as const),
  });
  const arbPrefs = fc.record(
    {
      only: fc.subarray(providers),
      ignore: fc.subarray(providers),
      order: fc.subarray(providers),
      allow_fallbacks: fc.boolean(),
      require_parameters: fc.boolean(),
      data_collection: fc.constantFrom('allow', 'deny'),
      zdr: fc.boolean(),
      enforce_distillable_text: fc.boolean(),
      quantizations: fc.subarray(['fp8', 'fp16', 'int4']),
      sort: fc.constantFrom('price', 'throughput', 'latency', { by: 'price', partition: 'none' }),
      max_price: fc.record({ prompt: fc.double({ min: 0, max: 100, noNaN: true }) }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  );
  it('no plan contains an endpoint a filter excluded', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(arbEndpoint, { maxLength: 5 }), { minLength: 1, maxLength: 3 }),
        arbPrefs,
        fc.subarray(['tools', 'temperature']),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.constantFrom(undefined, 'flex' as const, 'priority' as const),
        fc.record({
          sticky: fc.constantFrom(undefined, ...providers),
          cached: fc.constantFrom(undefined, ...providers),
          unhealthy: fc.subarray(providers),
        }),
        (models, raw, parameters, u, serviceTier, { sticky, cached, unhealthy }) => {
          const byId = Object.fromEntries(models.map((endpoints, i) => [`m/${i}`, { id: `m/${i}`, endpoints }]));
          const preferences = readProviderPreferences(raw);
          const requested = Object.keys(byId);
          const p = planAttempts({
            requested,
            lookup: (id) => byId[id],
            preferences,
            parameters,
            serviceTier,
            random: () => u,
            stickyProvider: sticky,
            cachedProviders: new Map(cached ? requested.map((id) => [id, cached]) : []),
            unhealthy: new Set(requested.flatMap((id) => unhealthy.map((provider) => endpointKey(id, provider)))),
          });
          for (const a of p.attempts) expect(exclusionOf(a.endpoint, preferences, { parameters, serviceTier })).toBeUndefined();
          const keys = p.attempts.map((a) => endpointKey(a.modelId, a.endpoint.provider));
          expect(new Set(keys).size).toBe(keys.length);
          for (const c of p.candidates.filter((c) => c.decision === 'dropped'))
            expect(keys).not.toContain(endpointKey(c.model, c.provider));
          if (p.attempts.length === 0 && p.candidates.length > 0) expect(p.noEndpoint).toMatch(/removed the last candidate/);
        },
      ),
    );
  });
});

describe('requestedModels', () => {
  it('puts model first and drops repeats', () => {
    expect(requestedModels('a', ['b', 'a', 'c'])).toEqual(['a', 'b', 'c']);
    expect(requestedModels(undefined, undefined)).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planAttempts } from '../routing/plan-attempts.js';
import { readProviderPreferences } from '../routing/provider-preferences.js';
import { mergeProviderPreferences } from './merge-provider-preferences.js';

describe('mergeProviderPreferences', () => {
  const cases: {
    name: string;
    defaults: Record<string, unknown> | null;
    request: Record<string, unknown> | null | undefined;
    merged: unknown;
  }[] = [
    { name: 'no defaults: the request as it is', defaults: null, request: { order: ['a'] }, merged: { order: ['a'] } },
    { name: 'no defaults, no request', defaults: null, request: undefined, merged: undefined },
    { name: 'no request: the defaults', defaults: { zdr: true }, request: null, merged: { zdr: true } },
    { name: 'only lists are merged', defaults: { only: ['a', 'b'] }, request: { only: ['B', 'c'] }, merged: { only: ['a', 'b', 'c'] } },
    { name: 'ignore lists are merged', defaults: { ignore: ['x'] }, request: { ignore: ['y'] }, merged: { ignore: ['x', 'y'] } },
    {
      name: 'a request list where the default has none',
      defaults: { zdr: true },
      request: { ignore: ['y'] },
      merged: { zdr: true, ignore: ['y'] },
    },
    { name: 'order is replaced, not merged', defaults: { order: ['a', 'b'] }, request: { order: ['c'] }, merged: { order: ['c'] } },
    {
      name: 'a request scalar wins',
      defaults: { allow_fallbacks: false, data_collection: 'deny' },
      request: { allow_fallbacks: true },
      merged: { allow_fallbacks: true, data_collection: 'deny' },
    },
    {
      name: 'null keeps the default',
      defaults: { sort: 'price', zdr: true },
      request: { sort: null, zdr: null },
      merged: { sort: 'price', zdr: true },
    },
    {
      name: 'max_price is merged price by price',
      defaults: { max_price: { prompt: 1, completion: 2 } },
      request: { max_price: { completion: 5 } },
      merged: { max_price: { prompt: 1, completion: 5 } },
    },
    {
      name: 'sort objects are replaced whole',
      defaults: { sort: { by: 'price', partition: 'none' } },
      request: { sort: 'latency' },
      merged: { sort: 'latency' },
    },
  ];
  it.each(cases)('$name', ({ defaults, request, merged }) => {
    expect(mergeProviderPreferences(defaults, request)).toEqual(merged);
  });
});

describe('organization defaults in the plan (property)', () => {
  const providers = ['a', 'b', 'c', 'd'];
  const arbDocument = fc.record(
    {
      only: fc.subarray(providers),
      ignore: fc.subarray(providers),
      zdr: fc.option(fc.boolean()),
      sort: fc.option(fc.constantFrom('price', 'latency')),
    },
    { requiredKeys: [] },
  );
  it('never plans a provider that the organization’s or the request’s ignore names, nor one outside both only lists', () => {
    const model = {
      id: 'm/x',
      endpoints: providers.map((provider) => ({ provider, pricing: { prompt: 1e-6, completion: 1e-6 }, zdr: provider !== 'd' })),
    };
    fc.assert(
      fc.property(arbDocument, arbDocument, (defaults, request) => {
        const merged = mergeProviderPreferences(defaults, request);
        const plan = planAttempts({
          requested: ['m/x'],
          lookup: () => model,
          preferences: readProviderPreferences(merged),
          random: () => 0.5,
        });
        const planned = plan.attempts.map((a) => a.endpoint.provider);
        for (const ignored of [...(defaults.ignore ?? []), ...(request.ignore ?? [])]) expect(planned).not.toContain(ignored);
        const only = [...(defaults.only ?? []), ...(request.only ?? [])];
        if (only.length > 0) for (const p of planned) expect(only).toContain(p);
        if (defaults.zdr === true && (request.zdr ?? null) === null) expect(planned).not.toContain('d');
      }),
    );
  });
});

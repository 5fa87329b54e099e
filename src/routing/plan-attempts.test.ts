import { describe, expect, it } from 'vitest';
import { planAttempts, requestedModels, type PlannableModel } from './plan-attempts.js';

type E = { provider: string };
const catalog: Record<string, PlannableModel<E>> = {
  'acme/fast': { id: 'acme/fast', endpoints: [{ provider: 'a' }, { provider: 'b' }, { provider: 'c' }] },
  'acme/slow': { id: 'acme/slow', endpoints: [{ provider: 'b' }] },
};
const lookup = (id: string) => catalog[id];
const order = (plan: ReturnType<typeof planAttempts<E>>) => plan.attempts.map((a) => `${a.modelId}@${a.endpoint.provider}`);

describe('planAttempts', () => {
  it('tries each endpoint of the model in catalog order, then the fallback models', () => {
    const plan = planAttempts({ requested: ['acme/fast', 'acme/slow'], lookup });
    expect(order(plan)).toEqual(['acme/fast@a', 'acme/fast@b', 'acme/fast@c', 'acme/slow@b']);
  });

  it('puts the session’s provider first', () => {
    expect(order(planAttempts({ requested: ['acme/fast'], lookup, stickyProvider: 'c' }))).toEqual(['acme/fast@c', 'acme/fast@a', 'acme/fast@b']);
  });

  it('ignores stickiness to an unhealthy provider and puts unhealthy providers last', () => {
    const plan = planAttempts({ requested: ['acme/fast'], lookup, stickyProvider: 'a', unhealthy: new Set(['acme/fast@a']) });
    expect(order(plan)).toEqual(['acme/fast@b', 'acme/fast@c', 'acme/fast@a']);
  });

  it('reports unknown models and plans the known ones', () => {
    const plan = planAttempts({ requested: ['nope/x', 'acme/slow'], lookup });
    expect(plan.unknownModels).toEqual(['nope/x']);
    expect(order(plan)).toEqual(['acme/slow@b']);
  });

  it('demotes an unhealthy endpoint of one model only', () => {
    const plan = planAttempts({ requested: ['acme/fast', 'acme/slow'], lookup, unhealthy: new Set(['acme/fast@b']) });
    expect(order(plan)).toEqual(['acme/fast@a', 'acme/fast@c', 'acme/fast@b', 'acme/slow@b']);
  });

  it('never repeats a model and provider pair', () => {
    expect(order(planAttempts({ requested: ['acme/slow', 'acme/slow'], lookup }))).toEqual(['acme/slow@b']);
  });
});

describe('requestedModels', () => {
  it('puts model first and drops repeats', () => {
    expect(requestedModels('a', ['b', 'a', 'c'])).toEqual(['a', 'b', 'c']);
    expect(requestedModels(undefined, undefined)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import { GatewayError } from '../../protocol/gateway-error.js';
import type { RoutableModel } from './routable-model.js';
import { type RouterContext, routeModels, routerModelOf } from './route-models.js';

const model = (id: string, perMillion: number, scores: RoutableModel['scores']): RoutableModel => ({
  id,
  price: perMillion / 1e6,
  promptPrice: perMillion / 2e6,
  scores,
  endpoints: [],
});
const context: RouterContext = {
  models: [model('a/cheap', 1, { coding: 0.3, general: 0.5 }), model('b/best', 4, { coding: 0.9, general: 0.9 })],
  traffic: () => 0,
  random: () => 0,
};
const ask = (request: Partial<ChatRequest>) =>
  routeModels({ messages: [{ role: 'user', content: 'Fix this bug:\n```\nx(\n```' }], ...request }, context);

describe('routeModels', () => {
  it('plans a catalog model as it is, and notes router plugins it does not run', () => {
    const routed = ask({ model: 'b/best', models: ['a/cheap'], plugins: [{ id: 'auto-router' }, { id: 'web' }] });
    expect(routed).toEqual({
      requested: ['b/best', 'a/cheap'],
      skipped: [{ plugin: 'auto-router', reason: 'not applied: the request names model b/best' }],
    });
  });

  it('runs the auto-router for service/auto with its defaults, the request’s models after its choice', () => {
    const routed = ask({ model: 'service/auto', models: ['b/best'] });
    expect(routed.requested).toEqual(['a/cheap', 'b/best']);
    expect(routed.decision).toMatchObject({ router: 'service/auto', plugin: 'auto-router', choice: { params: { task: 'coding' } } });
  });

  it('configures the router with the request’s plugin of that router', () => {
    expect(ask({ model: 'service/auto', plugins: [{ id: 'auto-router', cost_tier: 'max' }] }).requested).toEqual(['b/best']);
    expect(ask({ model: 'service/auto', plugins: [{ id: 'auto-beta-router', cost_tier: 'max' }] }).decision?.plugin).toBe(
      'auto-beta-router',
    );
    expect(ask({ model: 'service/pareto', plugins: [{ id: 'pareto-router', max_price: 3 }] }).requested).toEqual(['b/best']);
    const rules = [{ when: { tools: true }, models: ['b/best'] }, { models: ['a/cheap'] }];
    expect(ask({ model: 'service/switchyard', plugins: [{ id: 'switchyard-router', rules }] }).requested).toEqual(['a/cheap']);
  });

  it('keeps pin_model for the auto-router alone', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', model: 'b/best' },
      { role: 'user', content: 'and now?' },
    ];
    expect(ask({ messages, model: 'service/auto', plugins: [{ id: 'auto-router', pin_model: true }] }).requested[0]).toBe('b/best');
    expect(ask({ messages, model: 'service/auto', plugins: [{ id: 'auto-beta-router', pin_model: true }] }).requested[0]).toBe('a/cheap');
  });

  it('refuses a router model whose plugin the request disables, and a router that finds nothing', () => {
    expect(() => ask({ model: 'service/auto', plugins: [{ id: 'auto-router', enabled: false }] })).toThrow(
      'Model service/auto is routed by the auto-router plugin, which this request disables (enabled: false)',
    );
    const nothing = () => ask({ model: 'service/pareto', plugins: [{ id: 'pareto-router', max_price: 0.1 }] });
    expect(nothing).toThrow(GatewayError);
    expect(nothing).toThrow(
      /^The pareto-router plugin found no model for this request: no model with a coding score is priced at or under max_price/,
    );
  });
});

describe('routerModelOf', () => {
  it('is the router of the first enabled router plugin', () => {
    expect(
      routerModelOf([{ id: 'web' }, { id: 'pareto-router', enabled: false }, { id: 'switchyard-router' }, { id: 'auto-router' }]),
    ).toBe('service/switchyard');
    expect(routerModelOf([{ id: 'auto-beta-router' }])).toBe('service/auto');
    expect(routerModelOf([{ id: 'web' }])).toBeUndefined();
    expect(routerModelOf(undefined)).toBeUndefined();
  });
});

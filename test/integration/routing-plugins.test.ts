import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const coding = [{ role: 'user', content: 'Fix this bug:\n```js\nconst total = items.reduce((a, b) => a + b)\n```' }];
const hello = [{ role: 'user', content: 'Hello there, how are you?' }];
const perToken = (perMillion: number) => perMillion / 1e6;
const prices = (perMillion: number) => ({ prompt: perToken(perMillion), completion: perToken(perMillion) });

/** The same simulator behind several providers; models scored for the routers (coding percentiles: cheap 0, writer 50, coder 100). */
function catalog(simUrl: string) {
  return simCatalog(
    simUrl,
    ['alpha', 'beta', 'gamma', { id: 'delta', kind: 'anthropic' }],
    [
      {
        id: 'sim/coder',
        scores: { coding: 0.9, general: 0.7 },
        endpoints: [
          { provider: 'alpha', upstream: 'sim-model', ...prices(3) },
          { provider: 'beta', upstream: 'sim-model', ...prices(2) },
        ],
      },
      {
        id: 'sim/writer',
        scores: { creative_writing: 0.9, general: 0.8, coding: 0.4 },
        endpoints: [{ provider: 'gamma', upstream: 'sim-model', ...prices(1) }],
      },
      { id: 'sim/cheap', scores: { general: 0.5, coding: 0.3 }, endpoints: [{ provider: 'alpha', upstream: 'sim-mini', ...prices(0.2) }] },
      {
        id: 'sim/cached',
        endpoints: [
          { provider: 'alpha', upstream: 'sim-model', ...prices(2), pricing: { input_cache_read: perToken(0.2) } },
          { provider: 'beta', upstream: 'sim-model', ...prices(1) },
        ],
      },
      {
        id: 'sim/tiers',
        endpoints: [
          { provider: 'alpha', upstream: 'sim-model', ...prices(3), facts: { supported_service_tiers: ['default', 'flex', 'priority'] } },
          { provider: 'beta', upstream: 'sim-model', ...prices(1) },
          { provider: 'delta', upstream: 'sim-claude', ...prices(2), facts: { supported_service_tiers: ['auto', 'default', 'priority'] } },
        ],
      },
    ],
  );
}

describe.each(testEngines)('routing plugins through the gateway on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const chat = (body: Record<string, unknown>) =>
    call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { messages: hello, ...body },
      headers: { 'x-service-metadata': 'enabled' },
    });
  const routerStage = (body: any) => body.service_metadata.pipeline.find((s: { name: string }) => s.name !== 'planner');
  const upstreamBody = async () => (await readSimStats(sim.url)).lastRequestBody;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: catalog(sim.url) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  describe('auto-router', () => {
    it('service/auto classifies the request, chooses in the cost band and explains it in the metadata and the ledger', async () => {
      const res = await chat({ model: 'service/auto', messages: coding, plugins: [{ id: 'auto-router', cost_tier: 'max' }] });
      expect(res.status).toBe(200);
      expect(res.body.model).toBe('sim/coder');
      expect(routerStage(res.body)).toMatchObject({
        type: 'routing',
        name: 'auto-router',
        summary: expect.stringMatching(/^coding → sim\/coder/),
        data: { router: 'service/auto' },
      });
      expect(res.body.service_metadata.params).toMatchObject({
        task: 'coding',
        task_cues: ['code block', 'programming word'],
        cost_band: 'cost_tier max [80, 100]',
      });
      expect(res.body.service_metadata).toMatchObject({ requested: 'service/auto', strategy: 'auto' });
      expect(res.body.service_metadata.endpoints.available[0]).toMatchObject({
        model: 'sim/coder',
        provider: 'beta',
        reason: expect.stringMatching(/^auto-router: coding score 0.9, cost percentile 100; load balancing/),
      });
      expect(routerStage(res.body).data.models).toContainEqual({
        model: 'sim/cheap',
        decision: 'dropped',
        reason: 'cost percentile 0 outside cost_tier max [80, 100]',
      });

      const generation = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
      expect(generation.body.data).toMatchObject({ model: 'sim/coder', router: 'service/auto' });
      expect(generation.body.data.routing.router).toMatchObject({ plugin: 'auto-router', params: { task: 'coding' } });
    });

    it('defaults to a cost_quality_tradeoff of 9: the cheapest ranked model', async () => {
      expect((await chat({ model: 'service/auto', messages: coding })).body.model).toBe('sim/cheap');
    });

    it('runs from the plugin alone when the request names no model, with allowed_models patterns', async () => {
      const res = await chat({ model: undefined, plugins: [{ id: 'auto-router', allowed_models: ['sim/w*'] }] });
      expect(res.body.model).toBe('sim/writer');
    });

    it('lets an excluded pattern win over an allowed one', async () => {
      const res = await chat({
        model: 'service/auto',
        messages: coding,
        plugins: [{ id: 'auto-router', allowed_models: ['sim/c*'], excluded_models: ['sim/cheap', 'sim/cached'], cost_tier: 'low' }],
      });
      expect(res.body.model).toBe('sim/coder');
      expect(routerStage(res.body).data.models).toContainEqual({
        model: 'sim/cheap',
        decision: 'dropped',
        reason: 'excluded_models: matches sim/cheap',
      });
    });

    it('reuses the model of the latest assistant message with pin_model', async () => {
      const messages = [
        ...coding,
        { role: 'assistant', content: 'Use an initial value.', model: 'sim/writer' },
        { role: 'user', content: 'And now?' },
      ];
      const res = await chat({ model: 'service/auto', messages, plugins: [{ id: 'auto-router', pin_model: true }] });
      expect(res.body.model).toBe('sim/writer');
      expect((await upstreamBody()).messages[1]).toEqual({ role: 'assistant', content: 'Use an initial value.' });
    });

    it('does not run beside a catalog model, and says so', async () => {
      const res = await chat({ model: 'sim/writer', plugins: [{ id: 'auto-router', cost_tier: 'max' }] });
      expect(res.body.model).toBe('sim/writer');
      expect(res.body.service_metadata.pipeline[0]).toMatchObject({
        name: 'auto-router',
        summary: 'not applied: the request names model sim/writer',
      });
    });

    it('refuses its model when the request disables the plugin', async () => {
      const res = await chat({ model: 'service/auto', plugins: [{ id: 'auto-router', enabled: false }] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(
        'Model service/auto is routed by the auto-router plugin, which this request disables (enabled: false)',
      );
    });
  });

  describe('pareto-router', () => {
    it('takes the cheapest frontier model of the highest tier by default', async () => {
      const res = await chat({ model: 'service/pareto' });
      expect(res.body.model).toBe('sim/coder');
      expect(res.body.service_metadata.params).toMatchObject({ tier: 'high', price_source: 'prompt', quality_floor: 0.9 });
    });

    it('takes the best model under max_price, and answers 404 when none is', async () => {
      expect((await chat({ model: 'service/pareto', plugins: [{ id: 'pareto-router', max_price: 1.5 }] })).body.model).toBe('sim/writer');
      const none = await chat({ model: 'service/pareto', plugins: [{ id: 'pareto-router', max_price: 0.5 }] });
      expect(none.status).toBe(404);
      expect(none.body.error.message).toMatch(
        /^The pareto-router plugin found no model for this request: no model with a coding score is priced at or under max_price \$0.5\/M input/,
      );
    });
  });

  describe('switchyard-router with the organization’s rules', () => {
    beforeAll(async () => {
      const rules = [{ name: 'agents', when: { tools: true }, models: ['sim/coder'] }, { models: ['sim/cheap'] }];
      const saved = await call(gw, 'PATCH', '/organization/settings', {
        key: gw.managementKey,
        body: { plugins: [{ id: 'switchyard-router', rules }] },
      });
      expect(saved.status).toBe(200);
    });
    afterAll(async () => {
      await call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { plugins: null } });
    });

    it('switches on request features, for a request without a model', async () => {
      const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
      const agent = await chat({ tools });
      expect(agent.body.model).toBe('sim/coder');
      expect(routerStage(agent.body)).toMatchObject({ name: 'switchyard-router', summary: 'sim/coder by rule 1 (agents)' });
      expect((await chat({})).body.model).toBe('sim/cheap');
      expect((await chat({ model: 'service/switchyard' })).body.service_metadata.params).toMatchObject({
        algorithm: 'capability',
        rule: 'rule 2',
      });
    });
  });

  describe('service_tier', () => {
    it('drops endpoints without the tier under require_parameters, and reports the tier the upstream used', async () => {
      const res = await chat({ model: 'sim/tiers', service_tier: 'flex', provider: { require_parameters: true } });
      expect(res.body).toMatchObject({ provider: 'alpha', service_tier: 'flex' });
      expect(await upstreamBody()).toMatchObject({ service_tier: 'flex' });
      expect(res.body.service_metadata.endpoints.excluded).toContainEqual(
        expect.objectContaining({ provider: 'beta', reason: 'provider.require_parameters: does not support service_tier flex' }),
      );
      const row = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
      expect(row.body.data.service_tier).toBe('flex');
    });

    it('sends fast as priority where offered and leaves the tier out elsewhere', async () => {
      expect((await chat({ model: 'sim/tiers', service_tier: 'fast', provider: { order: ['alpha'] } })).body.service_tier).toBe('priority');
      expect(await upstreamBody()).toMatchObject({ service_tier: 'priority' });

      const elsewhere = await chat({ model: 'sim/tiers', service_tier: 'flex' });
      expect(elsewhere.body).toMatchObject({ provider: 'beta', service_tier: 'default' });
      expect(await upstreamBody()).not.toHaveProperty('service_tier');
      expect(elsewhere.body.service_metadata.endpoints.available[0].reason).toContain('service_tier flex not offered: sent without it');
    });

    it('asks Anthropic for Priority Tier capacity with its own value', async () => {
      const res = await chat({ model: 'sim/tiers', service_tier: 'priority', provider: { only: ['delta'] } });
      expect(res.body.provider).toBe('delta');
      expect(await upstreamBody()).toMatchObject({ service_tier: 'auto' });
      expect(res.body.service_tier).toBe('standard');
    });
  });

  describe('prompt-cache stickiness', () => {
    const opening = [
      { role: 'system', content: 'You review pull requests.' },
      { role: 'user', content: 'Review PR 7.' },
    ];

    it('sends a conversation’s follow-up to the provider holding its cached prefix while the cache read is cheaper', async () => {
      // The first turn is served by alpha, which prices cache reads.
      expect((await chat({ model: 'sim/cached', messages: opening, provider: { ignore: ['beta'] } })).body.provider).toBe('alpha');
      const followUp = await chat({
        model: 'sim/cached',
        messages: [...opening, { role: 'assistant', content: 'Looks fine.' }, { role: 'user', content: 'Any nits?' }],
      });
      expect(followUp.body.provider).toBe('alpha');
      expect(followUp.body.service_metadata.params).toMatchObject({ endpoint_order: 'cache' });
      expect(followUp.body.service_metadata.endpoints.available[0].reason).toContain(
        "prompt cache: holds this conversation's prefix (cache read $0.2/M < cheapest prompt $1/M): first",
      );

      // Another conversation has no cache anywhere: the cheaper provider.
      expect((await chat({ model: 'sim/cached', messages: [{ role: 'user', content: 'Review PR 8.' }] })).body.provider).toBe('beta');
    });

    it('identifies a conversation by prompt_cache_key when the request gives one', async () => {
      await chat({
        model: 'sim/cached',
        prompt_cache_key: 'thread-9',
        messages: [{ role: 'user', content: 'one' }],
        provider: { ignore: ['beta'] },
      });
      const next = await chat({ model: 'sim/cached', prompt_cache_key: 'thread-9', messages: [{ role: 'user', content: 'two' }] });
      expect(next.body.provider).toBe('alpha');
    });
  });
});

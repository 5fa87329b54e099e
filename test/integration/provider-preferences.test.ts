import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const messages = [{ role: 'user', content: 'hello there' }];

describe.each(testEngines)('provider preferences on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const chat = (body: Record<string, unknown>) =>
    call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { messages, model: 'sim/multi', ...body },
      headers: { 'x-service-metadata': 'enabled' },
    });

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta', 'gamma'],
      [
        {
          id: 'sim/multi',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model', prompt: 0.000003, completion: 0.000003, supported: ['temperature'] },
            {
              provider: 'beta',
              upstream: 'sim-model',
              prompt: 0.000001,
              completion: 0.000001,
              supported: ['temperature', 'tools', 'tool_choice'],
            },
            { provider: 'gamma', upstream: 'sim-model', prompt: 0.000002, completion: 0.000002 },
          ],
        },
      ],
    );
    gw = await startGateway(engine, { catalog });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('serves from the only allowed provider and explains the drops', async () => {
    const res = await chat({ provider: { only: ['gamma'] } });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('gamma');
    expect(res.body.service_metadata.endpoints).toEqual({
      total: 3,
      available: [expect.objectContaining({ provider: 'gamma', selected: true, outcome: 'success' })],
      excluded: [
        expect.objectContaining({ provider: 'alpha', reason: 'provider.only: not in provider.only' }),
        expect.objectContaining({ provider: 'beta', reason: 'provider.only: not in provider.only' }),
      ],
    });
  });

  it('skips ignored providers', async () => {
    const res = await chat({ provider: { ignore: ['beta'] } });
    expect(res.body.provider).toBe('gamma');
  });

  it('follows order', async () => {
    const res = await chat({ provider: { order: ['alpha', 'gamma'] } });
    expect(res.body.provider).toBe('alpha');
    expect(res.body.service_metadata).toMatchObject({ strategy: 'fallback', params: { endpoint_order: 'order' } });
    expect(res.body.service_metadata.endpoints.available.map((e: { provider: string }) => e.provider)).toEqual(['alpha', 'gamma', 'beta']);
  });

  it('sorts by price', async () => {
    const res = await chat({ provider: { sort: 'price' } });
    expect(res.body.provider).toBe('beta');
    expect(res.body.service_metadata.endpoints.available[0]).toMatchObject({ provider: 'beta', reason: 'sort by price: $2/M tokens' });
  });

  it('requires the parameters the request uses', async () => {
    const res = await chat({
      temperature: 0.5,
      tool_choice: 'none',
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      provider: { require_parameters: true, order: ['alpha', 'gamma', 'beta'] },
    });
    expect(res.body.provider).toBe('gamma');
    expect(res.body.service_metadata.endpoints.excluded.find((e: { provider: string }) => e.provider === 'alpha')).toMatchObject({
      reason: expect.stringContaining('provider.require_parameters: does not support tools'),
    });
  });

  it('answers 404 naming the preference that removed the last candidate, and records nothing billable', async () => {
    const res = await chat({ provider: { only: ['alpha', 'beta'], data_collection: 'deny' } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/provider\.data_collection removed the last candidate/);
  });

  it('keeps the routing explanation in the ledger', async () => {
    const res = await chat({ provider: { ignore: ['alpha'] } });
    const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
    expect(gen.status).toBe(200);
    const row = await gw.store.db.selectFrom('generations').select('routing').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    const routing = JSON.parse(row.routing as string);
    expect(routing.candidates).toContainEqual(
      expect.objectContaining({ provider: 'alpha', decision: 'dropped', reason: 'provider.ignore: in provider.ignore' }),
    );
  });
});

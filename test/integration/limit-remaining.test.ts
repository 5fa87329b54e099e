import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * limit_remaining is the limit minus what the key spent in the limit's
 * window: below zero when the key spent more than its limit (here: a limit
 * lowered under what was already spent), not a 0 that hides by how much.
 */
describe.each(testEngines)('limit_remaining of an overspent key on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.001, completion: 0.001 }] }],
    );
    gw = await startGateway(engine, { catalog });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('shows by how much the key went over its limit', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'spender' } });
    const { key, data } = created.body;
    const answered = await call(gw, 'POST', '/chat/completions', {
      key,
      body: { model: 'sim/chat', messages: [{ role: 'user', content: 'hello there' }] },
    });
    expect(answered.status).toBe(200);
    const usage = (await call(gw, 'GET', `/keys/${data.hash}`, { key: gw.managementKey })).body.data.usage;
    expect(usage).toBeGreaterThan(0.002);

    const lowered = await call(gw, 'PATCH', `/keys/${data.hash}`, { key: gw.managementKey, body: { limit: 0.001 } });
    const overspent = Number((0.001 - usage).toFixed(12));
    expect(lowered.body.data).toMatchObject({ limit: 0.001, usage, limit_remaining: overspent });
    expect((await call(gw, 'GET', `/keys/${data.hash}`, { key: gw.managementKey })).body.data.limit_remaining).toBe(overspent);
    expect((await call(gw, 'GET', '/key', { key })).body.data.limit_remaining).toBe(overspent);
    expect(overspent).toBeLessThan(0);
    expect(
      (await call(gw, 'POST', '/chat/completions', { key, body: { model: 'sim/chat', messages: [{ role: 'user', content: 'again' }] } }))
        .status,
    ).toBe(402);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * A plugin is named by its id, so an id named twice is the same mistake
 * wherever plugins are written: in a chat body, in a preset the body names,
 * and in the organization's default plugins. Each is refused with one message.
 */
describe.each(testEngines)('duplicate plugin ids on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const twice = [{ id: 'response-healing' }, { id: 'response-healing', enabled: false }];
  const message = 'plugins[1].id "response-healing" is already set: name each plugin once';
  const chat = (body: Record<string, unknown>) =>
    call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'sim/chat', messages: [{ role: 'user', content: 'hi' }], ...body },
    });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      catalog: simCatalog(sim.url, ['alpha'], [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]),
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('answers a chat body with one plugin id', async () => {
    expect((await chat({ plugins: [twice[0]] })).status).toBe(200);
  });

  it('refuses an id named twice in a chat body as organization settings do', async () => {
    const inBody = await chat({ plugins: twice });
    const inSettings = await call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { plugins: twice } });
    expect([inBody.status, inSettings.status]).toEqual([400, 400]);
    expect(inBody.body.error).toEqual({ code: 400, message });
    expect(inSettings.body.error).toEqual({ code: 400, message });
  });

  it('refuses an id named twice by a preset the body names', async () => {
    const saved = await call(gw, 'POST', '/presets', {
      key: gw.managementKey,
      body: { slug: 'twice', config: { model: 'sim/chat', plugins: twice } },
    });
    expect(saved.status).toBe(201);
    const res = await chat({ model: '@preset/twice' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
  });
});

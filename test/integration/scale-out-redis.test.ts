import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const postgres = testEngines.find((e) => e.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;

async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe.skipIf(!postgres || !redisUrl)('two instances sharing PostgreSQL and Redis', () => {
  let sim: Simulator;
  let a: RunningGateway;
  let b: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/sticky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/cached',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model', prompt: 2e-6, pricing: { input_cache_read: 2e-7 } },
            { provider: 'beta', upstream: 'sim-model', prompt: 1e-6 },
          ],
        },
      ],
    );
    a = await startGateway(postgres!, { catalog, redisUrl });
    b = await startGateway(postgres!, { catalog, redisUrl, databaseUrl: a.store.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await sim.close();
  });

  it('refuses on one instance a key disabled through the other (notices through Redis)', async () => {
    const { body } = await call(a, 'POST', '/keys', { key: a.managementKey, body: { name: 'Shared' } });
    expect((await call(b, 'GET', '/key', { key: body.key })).status).toBe(200);
    await call(a, 'PATCH', `/keys/${body.data.hash}`, { key: a.managementKey, body: { disabled: true } });
    expect(await eventually(async () => (await call(b, 'GET', '/key', { key: body.key })).status === 401)).toBe(true);
  });

  it('keeps a session on its provider whichever instance serves the next request', async () => {
    const session = `conv-${Date.now()}`;
    const chat = (gw: RunningGateway, model: string) =>
      call(gw, 'POST', '/chat/completions', {
        key: gw.managementKey,
        body: { model, session_id: session, messages: [{ role: 'user', content: 'hi' }] },
      });
    expect((await chat(a, 'sim/flaky')).body.provider).toBe('beta'); // pinned to beta on a
    await new Promise((r) => setTimeout(r, 50)); // the pin is written after the answer
    expect((await chat(b, 'sim/sticky')).body.provider).toBe('beta'); // b would pick alpha without the shared pin
  });

  it('sends a conversation to the provider holding its prompt cache whichever instance served it', async () => {
    const messages = [{ role: 'user', content: `cache me ${Date.now()}` }];
    const chat = (gw: RunningGateway, provider?: Record<string, unknown>) =>
      call(gw, 'POST', '/chat/completions', {
        key: gw.managementKey,
        body: { model: 'sim/cached', messages, ...(provider ? { provider } : {}) },
      });
    expect((await chat(a, { ignore: ['beta'] })).body.provider).toBe('alpha'); // alpha now holds the cache, recorded in Redis
    // b would pick the cheaper beta without the shared pin; beta prices no cache reads, so its answers move no pin.
    expect(await eventually(async () => (await chat(b)).body.provider === 'alpha')).toBe(true);
  });
});

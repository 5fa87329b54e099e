import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';
import { until } from '../support/until.js';

const postgres = testEngines.find((e) => e.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;

/** A workspace's defaults, cached by every instance, follow a change made through another (PostgreSQL NOTIFY, or Redis). */
describe
  .skipIf(!postgres)
  .each([{ feed: 'PostgreSQL NOTIFY', redis: undefined }, ...(redisUrl ? [{ feed: 'Redis', redis: redisUrl }] : [])])(
  'workspace defaults on two instances through $feed',
  ({ redis }) => {
    let sim: Simulator;
    let a: RunningGateway;
    let b: RunningGateway;

    beforeAll(async () => {
      sim = await startSimulator();
      const catalog = simCatalog(
        sim.url,
        ['alpha'],
        ['sim/one', 'sim/two'].map((id) => ({ id, endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] })),
      );
      const options = { catalog, ...(redis ? { redisUrl: redis } : {}) };
      a = await startGateway(postgres!, options);
      b = await startGateway(postgres!, { ...options, databaseUrl: a.store.url });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await sim?.close();
    });

    it('serves a request without a model on one instance with the default set through the other, as soon as it changes', async () => {
      const manage = (method: string, path: string, body?: unknown) =>
        call(a, method, path, { key: a.managementKey, ...(body !== undefined ? { body } : {}) });
      const ws = (await manage('POST', '/workspaces', { name: 'Shared', slug: 'shared', default_text_model: 'sim/one' })).body.data;
      const { key } = (await manage('POST', '/keys', { name: 'k', workspace_id: ws.id })).body;
      const modelOnB = async () => {
        const res = await call(b, 'POST', '/chat/completions', {
          key,
          body: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
        });
        return res.status === 200 ? res.body.model : res.body.error.message;
      };
      expect(await modelOnB()).toBe('sim/one'); // now cached on b

      expect((await manage('PATCH', '/workspaces/shared', { default_text_model: 'sim/two' })).status).toBe(200);
      expect(await until(modelOnB, (model) => model === 'sim/two')).toBe('sim/two');

      expect((await manage('PATCH', '/workspaces/shared', { default_text_model: null })).status).toBe(200);
      expect(await until(modelOnB, (model) => model !== 'sim/two')).toContain('model is required');
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { catalogOn, PAID_ROUTES } from '../support/paid-routes.js';

/**
 * Every paid route of a key that may use a BYOK credential for the
 * endpoint's provider goes out on it, as chat does: the ledger row records
 * it, and the upstream (where the simulator keeps what it received) saw its
 * key. Video jobs have their own test (byok-videos.test.ts): they poll later.
 */
const PROVIDER_KEYS = { 'openai-a': 'sk-byok-openai-a-0001', 'cohere-a': 'sk-byok-cohere-a-0002' };

describe.each(testEngines)('BYOK on every paid route on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let key: { key: string; hash: string };
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: catalogOn(sim.url) });
    const workspaceId = (await admin('POST', '/workspaces', { name: 'Paid', slug: 'paid' })).body.data.id as string;
    for (const [provider, providerKey] of Object.entries(PROVIDER_KEYS))
      expect((await admin('POST', '/byok', { provider, key: providerKey, workspace_id: workspaceId })).status).toBe(201);
    const made = (await admin('POST', '/keys', { name: 'paid', workspace_id: workspaceId })).body;
    key = { key: made.key, hash: made.data.hash };
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it.each(PAID_ROUTES.filter((r) => r.route !== 'videos'))(
    '$route: goes out on the workspace’s credential',
    async ({ path, status, request }) => {
      await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
      const sent = request();
      const answer = await fetch(`${gw.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, ...sent.headers },
        body: sent.body,
      });
      expect(answer.status).toBe(status);
      await answer.arrayBuffer();
      const row = await gw.store.db
        .selectFrom('generations')
        .select(['provider_name', 'is_byok', 'byok_cost', 'total_cost'])
        .where('api_key_hash', '=', key.hash)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ is_byok: 1, total_cost: 0 });
      expect(row.byok_cost).toBeGreaterThan(0);
      // Where the simulator keeps the headers it received (not its image generations and speech): the provider's BYOK key.
      const seen = ((await readSimStats(sim.url)) as { lastRequestHeaders?: Record<string, string> }).lastRequestHeaders;
      if (seen) expect(seen.authorization).toBe(`Bearer ${PROVIDER_KEYS[row.provider_name as keyof typeof PROVIDER_KEYS]}`);
    },
  );
});

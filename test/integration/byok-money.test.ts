import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The money rules of BYOK (spec 2.5): a generation on a BYOK credential is
 * charged the operator's fee (a share of the endpoint's price, 0 by default)
 * and counted at the endpoint's price in byok_usage; it counts toward the
 * key's limit only with include_byok_in_limit, toward a workspace budget only
 * with include_byok_in_budgets, and the holds of concurrent requests follow
 * the same rule.
 */
const MODELS = [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.001, completion: 0.002 }] }];
const body = { model: 'sim/chat', max_tokens: 10, messages: [{ role: 'user', content: 'hello there' }] };
/** The most one of these chats can cost (and so what a request may overrun a limit by): generous. */
const ONE_CHAT_AT_MOST = 0.05;

describe.each(testEngines)('BYOK money on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const admin = (method: string, path: string, payload?: unknown) => call(gw, method, path, { key: gw.managementKey, body: payload });
  const chat = (key: string) => call(gw, 'POST', '/chat/completions', { key, body });
  const keyRecord = async (key: string) => (await call(gw, 'GET', '/key', { key })).body.data;
  const ledger = (hash: string) =>
    gw.store.db
      .selectFrom('generations')
      .select(['total_cost', 'byok_cost', 'is_byok', 'status'])
      .where('api_key_hash', '=', hash)
      .execute();
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  async function workspace(slug: string) {
    const id = (await admin('POST', '/workspaces', { name: slug, slug })).body.data.id as string;
    expect((await admin('POST', '/byok', { provider: 'alpha', key: `sk-${slug}-key`, workspace_id: id })).status).toBe(201);
    return id;
  }
  async function key(workspaceId: string, fields: Record<string, unknown>) {
    const made = (await admin('POST', '/keys', { name: `k${Math.random()}`, workspace_id: workspaceId, ...fields })).body;
    return { key: made.key as string, hash: made.data.hash as string };
  }

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: simCatalog(sim.url, ['alpha'], MODELS) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('does not count BYOK usage toward a key limit without include_byok_in_limit', async () => {
    const k = await key(await workspace('limit-out'), { limit: 0.03 });
    for (let i = 0; i < 4; i++) expect((await chat(k.key)).status).toBe(200);
    const rows = await ledger(k.hash);
    const byok = sum(rows.map((r) => r.byok_cost));
    expect(rows.every((r) => r.is_byok === 1 && r.total_cost === 0)).toBe(true);
    expect(byok).toBeGreaterThan(0.03);
    const record = await keyRecord(k.key);
    expect(record).toMatchObject({ usage: 0, limit_remaining: 0.03, include_byok_in_limit: false });
    expect(record.byok_usage).toBeCloseTo(byok, 10);
  });

  it('holds concurrent BYOK chats to a key limit with include_byok_in_limit', async () => {
    const k = await key(await workspace('limit-in'), { limit: 0.03, include_byok_in_limit: true });
    const results = await Promise.all(Array.from({ length: 20 }, () => chat(k.key)));
    expect(results.filter((r) => r.status === 402).length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    const byok = sum((await ledger(k.hash)).filter((r) => r.status === 'success').map((r) => r.byok_cost));
    expect(byok).toBeLessThanOrEqual(0.03 + ONE_CHAT_AT_MOST);
    // Sequentially, once the BYOK usage passed the limit, the key is refused.
    for (let i = 0; i < 10 && (await chat(k.key)).status === 200; i++);
    expect((await chat(k.key)).status).toBe(402);
    const record = await keyRecord(k.key);
    expect(record.usage).toBe(0);
    expect(record.limit_remaining).toBeLessThan(ONE_CHAT_AT_MOST);
    expect(record.byok_usage).toBeGreaterThan(0.03 - ONE_CHAT_AT_MOST);
  });

  it('counts BYOK usage toward a workspace budget only with include_byok_in_budgets, concurrent chats included', async () => {
    const counted = await workspace('budget-in');
    const free = await workspace('budget-out');
    for (const [id, include] of [
      [counted, true],
      [free, false],
    ] as const)
      expect((await admin('PUT', `/workspaces/${id}/budgets/lifetime`, { limit_usd: 0.03, include_byok_in_budgets: include })).status).toBe(
        200,
      );
    const inKey = await key(counted, {});
    const outKey = await key(free, {});

    const results = await Promise.all(Array.from({ length: 20 }, () => chat(inKey.key)));
    expect(results.filter((r) => r.status === 402).length).toBeGreaterThan(0);
    const spent = sum((await ledger(inKey.hash)).filter((r) => r.status === 'success').map((r) => r.byok_cost));
    expect(spent).toBeLessThanOrEqual(0.03 + ONE_CHAT_AT_MOST);
    const budget = (await admin('GET', `/workspaces/${counted}/budgets/lifetime`)).body;
    // The budget's usage counts the workspace's BYOK usage (it includes it).
    expect(budget.data.usage).toBeCloseTo(spent, 10);

    // One at a time: a hold is the most a request can cost, on the gateway's credential too (a BYOK one may fall back to it).
    const freeAnswers = [];
    for (let i = 0; i < 8; i++) freeAnswers.push(await chat(outKey.key));
    expect(freeAnswers.map((r) => r.status).every((s) => s === 200)).toBe(true);
    expect(sum((await ledger(outKey.hash)).map((r) => r.byok_cost))).toBeGreaterThan(0.03);
  });

  it('charges the operator’s BYOK fee rate on the endpoint’s price', async () => {
    // Made before the other instance starts, which loads the credentials then (on SQLite this one's change notices stay in this process).
    const k = await key(await workspace('fee'), {});
    const other = await startGateway(engine, {
      databaseUrl: gw.store.url,
      catalog: simCatalog(sim.url, ['alpha'], MODELS),
      byok: { feeRate: 0.1 },
    });
    try {
      const answer = await call(other, 'POST', '/chat/completions', { key: k.key, body });
      expect(answer.body).toMatchObject({ usage: expect.anything() });
      const [row] = await ledger(k.hash);
      expect(row!.byok_cost).toBeGreaterThan(0);
      expect(row!.total_cost).toBeCloseTo(row!.byok_cost * 0.1, 12);
      expect((await keyRecord(k.key)).usage).toBeCloseTo(row!.total_cost, 10);
    } finally {
      await other.close();
    }
  });
});

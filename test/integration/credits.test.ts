import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

// A chat of "hello there" with max_tokens 20 can cost $0.00116 at these prices, and costs less.
const PRICES = { prompt: 0.00004, completion: 0.00004 };
const MODELS = [{ id: 'sim/metered', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] }];
const MOST_ONE_CHAT_COSTS = 0.00116;
const round = (usd: number) => Math.round(usd * 1e12) / 1e12;

describe.each(testEngines)('credits on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let key: { key: string; hash: string };
  let other: { key: string; organizationId: string };

  const chat = (fields: Record<string, unknown> = {}) =>
    call(gw, 'POST', '/chat/completions', {
      key: key.key,
      body: { model: 'sim/metered', max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }], ...fields },
    });
  const credits = async (apiKey = gw.managementKey) =>
    (await call(gw, 'GET', '/credits', { key: apiKey })).body.data as { total_credits: number; total_usage: number };
  const grant = (body: unknown, apiKey = gw.managementKey) => call(gw, 'POST', '/credits/grants', { key: apiKey, body });
  const ledgerTotal = async (organizationId = gw.organizationId) =>
    round(
      (await gw.store.db.selectFrom('generations').select('total_cost').where('organization_id', '=', organizationId).execute()).reduce(
        (n, r) => n + r.total_cost,
        0,
      ),
    );

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: simCatalog(sim.url, ['alpha'], MODELS) });
    const created = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'no limit of its own' } })).body;
    key = { key: created.key, hash: created.data.hash };
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_tenant', name: 'Tenant', slug: 'tenant', is_default: 0, created_at: now })
      .execute();
    const workspace = '33333333-3333-4333-8333-333333333333';
    await gw.store.db
      .insertInto('workspaces')
      .values({ id: workspace, organization_id: 'org_tenant', name: 'Default', slug: 'default', is_default: 1, created_at: now })
      .execute();
    other = {
      key: (
        await createApiKey(
          gw.store.db,
          { organizationId: 'org_tenant', workspaceId: workspace, name: 'Tenant mgmt', isManagement: true },
          now,
        )
      ).key,
      organizationId: 'org_tenant',
    };
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('GET /credits: nothing granted, usage as the ledger has it, and no balance checked before a grant', async () => {
    expect(await credits()).toEqual({ total_credits: 0, total_usage: 0 });
    for (const _ of [1, 2, 3]) expect((await chat()).status).toBe(200);
    expect(await credits()).toEqual({ total_credits: 0, total_usage: await ledgerTotal() });
    expect((await call(gw, 'GET', '/credits', { key: key.key })).status).toBe(403);
    expect((await call(gw, 'GET', '/credits')).status).toBe(401);
  });

  it('holds concurrent requests to the balance once credits are granted: the others get 402, and usage stays within what was granted', async () => {
    const before = await credits();
    const granted = await grant({ amount: round(before.total_usage + 0.01), note: 'first top-up' });
    expect(granted.status).toBe(201);
    expect(granted.body.data).toEqual({
      id: expect.any(String),
      organization_id: gw.organizationId,
      amount: round(before.total_usage + 0.01),
      note: 'first top-up',
      granted_by: expect.stringMatching(/^key:[0-9a-f]{64}$/),
      created_at: expect.any(String),
    });
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => chat({ stream: i % 2 === 1 })));
    const answered = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 402);
    expect(answered).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.body.error.metadata.limit).toBe('credits');
    const after = await credits();
    expect(after.total_credits).toBe(round(before.total_usage + 0.01));
    expect(after.total_usage).toBe(await ledgerTotal());
    expect(after.total_usage).toBeLessThanOrEqual(after.total_credits);
  });

  it('refuses every request once the balance is spent, and serves again after the next grant', async () => {
    // Spend what is left with small requests until none fits.
    for (let i = 0; i < 40 && (await chat({ max_tokens: 1 })).status === 200; i++);
    const refused = await chat({ max_tokens: 1 });
    expect(refused.status).toBe(402);
    expect(refused.body.error.metadata.limit).toBe('credits');
    const { total_credits, total_usage } = await credits();
    expect(total_usage).toBeLessThanOrEqual(total_credits);
    expect(total_credits - total_usage).toBeLessThan(MOST_ONE_CHAT_COSTS);
    expect((await grant({ amount: 1, note: 'second' })).status).toBe(201);
    expect((await chat()).status).toBe(200);
    const list = await call(gw, 'GET', '/credits/grants', { key: gw.managementKey });
    expect(list.body.total_count).toBe(2);
    expect(list.body.data.map((g: { note: string }) => g.note)).toEqual(['second', 'first top-up']);
  });

  it('answers a spent balance with the reference-like 402 and the totals', async () => {
    const { total_credits, total_usage } = await credits();
    expect((await grant({ amount: -round(total_credits - total_usage), note: 'take back what is left' })).status).toBe(201);
    const res = await chat({ max_tokens: 1 });
    expect(res.status).toBe(402);
    expect(res.body.error.message).toMatch(
      /^Insufficient credits: the organization has used \$[\d.]+ of the \$[\d.]+ granted to it; an operator grants more \(model-gateway credits grant\)$/,
    );
    expect(res.body.error.metadata).toEqual({ limit: 'credits', total_credits: expect.any(Number), total_usage: expect.any(Number) });
    expect((await grant({ amount: 1 })).status).toBe(201);
  });

  it('lets the operator grant to another organization, and no one else grant at all', async () => {
    expect((await grant({ amount: 5, organization_id: other.organizationId })).status).toBe(201);
    expect(await credits(other.key)).toEqual({ total_credits: 5, total_usage: 0 });
    const refused = await grant({ amount: 5 }, other.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("Only the operator's management keys (of the default organization) can grant credits");
    expect((await grant({ amount: 5 }, key.key)).status).toBe(403);
    expect((await call(gw, 'GET', '/credits/grants', { key: other.key })).body.total_count).toBe(1);
  });

  it('refuses a grant of nothing, one that takes the total below zero, an unknown organization and unknown fields, naming them', async () => {
    const refusals: [unknown, number, string][] = [
      [{ amount: 0 }, 400, 'amount must not be 0'],
      [{ amount: -1_000_000 }, 400, "amount -1000000 would take the organization's total credits below 0"],
      [{ amount: 2e9 }, 400, 'amount must be <= 1000000000'],
      [{ amount: '5' }, 400, 'amount must be of type number'],
      [{}, 400, 'amount is required'],
      [{ amount: 1, memo: 'x' }, 400, 'Request body has an unknown property "memo"'],
      [{ amount: 1, organization_id: 'org_nowhere' }, 404, 'Organization org_nowhere not found'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await grant(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toContain(message);
    }
  });
});

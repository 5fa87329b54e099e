import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { budgetWorkspace } from '../support/budget-workspace.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';
import { until } from '../support/until.js';

const postgres = testEngines.find((e) => e.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;

// A chat of "hello there" with max_tokens 20 can cost $0.00116 at these prices and costs less.
const PRICES = { prompt: 0.00004, completion: 0.00004 };

const chat = (gw: Pick<RunningGateway, 'baseUrl'>, key: string) =>
  call(gw, 'POST', '/chat/completions', {
    key,
    body: { model: 'sim/metered', max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }] },
  });

describe.skipIf(!postgres || !redisUrl)('workspace budgets across instances sharing PostgreSQL and Redis', () => {
  let sim: Simulator;
  let a: RunningGateway;
  let b: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [{ id: 'sim/metered', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] }],
    );
    a = await startGateway(postgres!, { catalog, redisUrl });
    b = await startGateway(postgres!, { catalog, redisUrl, databaseUrl: a.store.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await sim.close();
  });

  it('enforces one budget between them: 40 concurrent chats of two keys over both instances never spend past it', async () => {
    const ws = await budgetWorkspace(a, 'shared-team');
    const keys = [await ws.newKey('first'), await ws.newKey('second')];
    const BUDGET = 0.005;
    expect((await ws.setBudget('daily', { limit_usd: BUDGET })).status).toBe(200);
    expect((await ws.setBudget('monthly', { limit_usd: 1 })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => chat(i % 4 < 2 ? a : b, keys[i % 2]!)));
    const answered = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(answered.length + refused.length).toBe(40);
    expect(answered.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(20);
    for (const r of refused)
      expect(r.body.error.metadata).toMatchObject({ limit: 'workspace_budget', interval: 'daily', workspace_id: ws.id });
    const spent = await a.store.db
      .selectFrom('generations')
      .select((eb) => eb.fn.sum<number>('total_cost').as('cost'))
      .where('workspace_id', '=', ws.id)
      .executeTakeFirstOrThrow();
    expect(Number(spent.cost)).toBeLessThanOrEqual(BUDGET);
  });

  it('holds a request on one instance to a budget set through the other, and lets it go when the budget is removed there', async () => {
    const ws = await budgetWorkspace(a, 'moving-team');
    const key = await ws.newKey('spender');
    // b has read the workspace's budgets (none) and keeps them.
    expect((await chat(b, key)).status).toBe(200);
    expect((await ws.setBudget('lifetime', { limit_usd: 0 })).status).toBe(200);
    const refused = await until(
      () => chat(b, key),
      (r) => r.status === 402,
    );
    expect(refused.body.error.metadata).toMatchObject({ limit: 'workspace_budget', interval: 'lifetime', workspace_id: ws.id });
    await call(b, 'DELETE', `/workspaces/${ws.slug}/budgets/lifetime`, { key: b.managementKey });
    expect(
      (
        await until(
          () => chat(a, key),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
  });
});

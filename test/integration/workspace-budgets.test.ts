import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGeneration } from '../../src/accounting/record-generation.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { budgetWorkspace } from '../support/budget-workspace.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

// A chat of "hello there" with max_tokens 20 can cost $0.00116 at these prices and costs less.
const PRICES = { prompt: 0.00004, completion: 0.00004 };

describe.each(testEngines)('workspace budgets on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const time = testClock('2026-11-25T12:00:00.000Z');
  const admin = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  const chat = (key: string) =>
    call(gw, 'POST', '/chat/completions', {
      key,
      body: { model: 'sim/metered', max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }] },
    });

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [{ id: 'sim/metered', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] }],
    );
    gw = await startGateway(engine, { catalog, clock: time.clock });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('sets, reads, lists and deletes a budget per interval by the workspace id or slug, with usage, remaining and reset time', async () => {
    const ws = await budgetWorkspace(gw, 'crud-team');
    const monthly = await ws.setBudget('monthly', { limit_usd: 100, include_byok_in_budgets: true });
    expect(monthly.status).toBe(200);
    expect(monthly.body).toEqual({
      data: {
        id: expect.any(String),
        workspace_id: ws.id,
        limit_usd: 100,
        reset_interval: 'monthly',
        created_at: '2026-11-25T12:00:00.000Z',
        updated_at: '2026-11-25T12:00:00.000Z',
        usage: 0,
        remaining: 100,
        resets_at: '2026-12-01T00:00:00.000Z',
      },
      include_byok_in_budgets: true,
    });
    await recordGeneration(
      gw.store.db,
      {
        id: 'gen-crud',
        organization_id: gw.organizationId,
        workspace_id: ws.id,
        api_key_hash: 'a deleted key',
        model: 'm',
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        cancelled: 0,
        total_cost: 2.5,
        created_at: '2026-11-25T11:00:00.000Z',
      },
      time.clock(),
    );
    time.set('2026-11-25T13:00:00.000Z');
    expect((await ws.setBudget('lifetime', { limit_usd: 1000 })).body.data).toMatchObject({
      reset_interval: null,
      usage: 2.5,
      resets_at: null,
    });
    const daily = await admin('PUT', `/workspaces/${ws.id}/budgets/daily`, { limit_usd: 3 });
    expect(daily.body.data).toMatchObject({ updated_at: '2026-11-25T13:00:00.000Z', usage: 2.5, remaining: 0.5 });
    expect(daily.body.include_byok_in_budgets).toBe(true);
    // Replacing keeps the budget's id and creation time.
    const again = await ws.setBudget('monthly', { limit_usd: 50 });
    expect(again.body.data).toMatchObject({ id: monthly.body.data.id, created_at: '2026-11-25T12:00:00.000Z', limit_usd: 50 });

    const list = await admin('GET', `/workspaces/${ws.slug}/budgets`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: { reset_interval: string | null }) => b.reset_interval)).toEqual(['daily', 'monthly', null]);
    expect(list.body.include_byok_in_budgets).toBe(true);
    expect((await admin('GET', `/workspaces/${ws.slug}/budgets/daily`)).body.data).toMatchObject({ limit_usd: 3, usage: 2.5 });

    expect(await admin('DELETE', `/workspaces/${ws.slug}/budgets/daily`)).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await admin('GET', `/workspaces/${ws.slug}/budgets/daily`)).status).toBe(404);
    // The reference: deleted is true whether or not there was a budget.
    expect(await admin('DELETE', `/workspaces/${ws.slug}/budgets/weekly`)).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await admin('GET', `/workspaces/${ws.slug}/budgets`)).body.data).toHaveLength(2);
  });

  it('refuses bad input naming the field and rule, and a workspace it cannot see', async () => {
    const ws = await budgetWorkspace(gw, 'strict-team');
    await ws.setBudget('weekly', { limit_usd: 10 });
    const narrower = await ws.setBudget('monthly', { limit_usd: 10 });
    expect(narrower.status).toBe(400);
    expect(narrower.body.error.message).toBe(
      'limit_usd: the weekly budget ($10) must be less than the monthly budget ($10); budgets strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)',
    );
    expect((await ws.setBudget('daily', { limit_usd: 12 })).body.error.message).toMatch(
      /^limit_usd: the daily budget \(\$12\) must be less than the weekly budget \(\$10\)/,
    );
    expect((await ws.setBudget('lifetime', { limit_usd: 5 })).body.error.message).toMatch(
      /the weekly budget \(\$10\) must be less than the lifetime budget \(\$5\)/,
    );
    for (const [body, rule] of [
      [{ limit_usd: -1 }, /limit_usd.*>= 0/],
      [{ limit_usd: 'ten' }, /limit_usd.*number/],
      [{}, /limit_usd/],
      [{ limit_usd: 1, include_byok_in_budgets: 'yes' }, /include_byok_in_budgets.*boolean/],
    ] as const) {
      const refused = await ws.setBudget('daily', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message).toMatch(rule);
    }
    const infinite = await call(gw, 'PUT', `/workspaces/${ws.slug}/budgets/daily`, { key: gw.managementKey, body: '{"limit_usd": 1e309}' });
    expect(infinite.status).toBe(400);
    expect(infinite.body.error.message).toMatch(/limit_usd/);
    const hourly = await ws.setBudget('hourly', { limit_usd: 1 });
    expect(hourly.status).toBe(400);
    expect(hourly.body.error.message).toBe('path parameter interval must be one of "daily", "weekly", "monthly", "lifetime"');
    expect((await ws.setBudget('daily', { limit_usd: 1 })).status).toBe(200);
    expect((await admin('GET', '/workspaces/no-such-team/budgets')).status).toBe(404);
    expect((await admin('PUT', '/workspaces/no-such-team/budgets/daily', { limit_usd: 1 })).status).toBe(404);
    const member = await ws.newKey('not a manager');
    expect((await call(gw, 'GET', '/workspaces/default/budgets', { key: member })).status).toBe(403);
    await gw.store.db.updateTable('workspaces').set({ deleted_at: time.clock().toISOString() }).where('id', '=', ws.id).execute();
    expect((await admin('GET', `/workspaces/${ws.id}/budgets`)).status).toBe(404);
  });

  it('holds 40 concurrent chats from two keys of one workspace to its daily budget, refusing the rest with 402 naming it', async () => {
    time.set('2026-11-26T12:00:00.000Z');
    const ws = await budgetWorkspace(gw, 'busy-team');
    const keys = [await ws.newKey('first'), await ws.newKey('second')];
    const outsider = (await admin('POST', '/keys', { name: 'elsewhere' })).body.key as string;
    const BUDGET = 0.005;
    await ws.setBudget('daily', { limit_usd: BUDGET });
    await ws.setBudget('weekly', { limit_usd: 0.01 });
    await ws.setBudget('lifetime', { limit_usd: 1 });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => chat(keys[i % 2]!)));
    const answered = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(answered.length + refused.length).toBe(40);
    expect(answered.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(20);
    for (const r of refused)
      expect(r.body.error.metadata).toMatchObject({ limit: 'workspace_budget', interval: 'daily', workspace_id: ws.id });
    const spent = await gw.store.db
      .selectFrom('generations')
      .select((eb) => eb.fn.sum<number>('total_cost').as('cost'))
      .where('workspace_id', '=', ws.id)
      .executeTakeFirstOrThrow();
    expect(Number(spent.cost)).toBeLessThanOrEqual(BUDGET);
    const listed = (await admin('GET', `/workspaces/${ws.slug}/budgets/daily`)).body.data;
    expect(listed.usage).toBeCloseTo(Number(spent.cost), 10);
    // Another workspace's key is not held to this budget.
    expect((await chat(outsider)).status).toBe(200);

    // Spent to the last cent it is refused as spent; the next UTC day the daily budget starts again, under the weekly one.
    await gw.store.db.updateTable('workspace_usage').set({ usage_daily: BUDGET }).where('workspace_id', '=', ws.id).execute();
    await ws.setBudget('daily', { limit_usd: BUDGET }); // a change drops the cached budgets, so the account is read again
    time.set('2026-11-27T00:00:00.000Z');
    expect((await chat(keys[0]!)).status).toBe(200);
  });

  it('answers 402 GW_ERR_WORKSPACE_BUDGET_SPENT for a spent budget, and serves again once the budget is raised or removed', async () => {
    time.set('2026-11-28T12:00:00.000Z');
    const ws = await budgetWorkspace(gw, 'spent-team');
    const key = await ws.newKey('spender');
    await recordGeneration(
      gw.store.db,
      {
        id: 'gen-spent',
        organization_id: gw.organizationId,
        workspace_id: ws.id,
        api_key_hash: 'an earlier key',
        model: 'm',
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        cancelled: 0,
        total_cost: 0.5,
        created_at: time.clock().toISOString(),
      },
      time.clock(),
    );
    await ws.setBudget('weekly', { limit_usd: 0.5 });
    const refused = await chat(key);
    expect(refused.status).toBe(402);
    expect(refused.headers.get('x-error-code')).toBe('GW_ERR_WORKSPACE_BUDGET_SPENT');
    expect(refused.body.error).toEqual({
      code: 402,
      message: "The workspace's weekly budget of $0.5 is spent: its keys have used $0.5 in this period",
      metadata: {
        limit: 'workspace_budget',
        workspace_id: ws.id,
        interval: 'weekly',
        limit_usd: 0.5,
        usage: 0.5,
        resets_at: '2026-11-30T00:00:00.000Z',
      },
    });
    await ws.setBudget('weekly', { limit_usd: 1 });
    expect((await chat(key)).status).toBe(200);
    await ws.setBudget('weekly', { limit_usd: 0.5 });
    expect((await chat(key)).status).toBe(402);
    await admin('DELETE', `/workspaces/${ws.slug}/budgets/weekly`);
    expect((await chat(key)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGeneration } from '../../src/accounting/record-generation.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { budgetWorkspace } from '../support/budget-workspace.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { catalogOn, PAID_ROUTES } from '../support/paid-routes.js';

describe.each(testEngines)('a spent workspace budget on every paid route on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let spent: { id: string; key: string };
  let open: string;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: catalogOn(sim.url) });
    const ws = await budgetWorkspace(gw, 'spent');
    spent = { id: ws.id, key: await ws.newKey('spent key') };
    await recordGeneration(
      gw.store.db,
      {
        id: 'gen-before',
        organization_id: gw.organizationId,
        workspace_id: ws.id,
        api_key_hash: 'a deleted key',
        model: 'sim/chat',
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        cancelled: 0,
        total_cost: 1,
        created_at: new Date().toISOString(),
      },
      new Date(),
    );
    expect((await ws.setBudget('monthly', { limit_usd: 1 })).status).toBe(200);
    // The same spend in a workspace whose budget it does not reach: every route serves it.
    const other = await budgetWorkspace(gw, 'open');
    open = await other.newKey('open key');
    expect((await other.setBudget('lifetime', { limit_usd: 100 })).status).toBe(200);
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const post = (path: string, key: string, request: { headers?: Record<string, string>; body: string | FormData }) =>
    fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...request.headers }, body: request.body });

  it.each(PAID_ROUTES)('$route: served within a budget, refused with 402 once the budget is spent', async ({ path, status, request }) => {
    expect((await post(path, open, request())).status).toBe(status);
    const refused = await post(path, spent.key, request());
    expect(refused.status).toBe(402);
    const { error } = (await refused.json()) as { error: { metadata: Record<string, unknown> } };
    expect(refused.headers.get('x-error-code')).toBe('GW_ERR_WORKSPACE_BUDGET_SPENT');
    expect(error.metadata).toMatchObject({
      limit: 'workspace_budget',
      workspace_id: spent.id,
      interval: 'monthly',
      limit_usd: 1,
      usage: 1,
    });
  });
});

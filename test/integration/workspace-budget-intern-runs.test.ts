import { ConstantBackoff } from 'cockatiel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGeneration } from '../../src/accounting/record-generation.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { budgetWorkspace } from '../support/budget-workspace.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { collectEvents, internStatus, seedIntern, waitFor } from '../support/interns-runtime.js';
import { simCatalog } from '../support/sim-gateway.js';

/** Intern runs are the last paid route: each model turn of a run is held to the invoking key's workspace budgets. */
describe.each(testEngines)('a spent workspace budget on intern runs on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(sim.url, ['alpha'], [{ id: 'sim/agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]);
    gw = await startGateway(engine, { catalog, internRuntime: { tickMs: 100, leaseMs: 3_000, backoff: new ConstantBackoff(100) } });
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('fails the run before its first model call, naming the budget', async () => {
    const runtime = gw.app.internRuntime!;
    const ws = await budgetWorkspace(gw, 'interns');
    await ws.newKey('intern caller');
    const { hash } = await gw.store.db.selectFrom('api_keys').select('hash').where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
    await recordGeneration(
      gw.store.db,
      {
        id: 'gen-before',
        organization_id: gw.organizationId,
        workspace_id: ws.id,
        api_key_hash: hash,
        model: 'sim/agent',
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        cancelled: 0,
        total_cost: 1,
        created_at: new Date().toISOString(),
      },
      new Date(),
    );
    expect((await ws.setBudget('daily', { limit_usd: 1 })).status).toBe(200);
    const seeded = await seedIntern(gw.store.db, {
      organizationId: gw.organizationId,
      workspaceId: ws.id,
      apiKeyHash: hash,
      model: 'sim/agent',
      settings: {},
    });
    await runtime.provision(seeded.internId);
    await waitFor(
      () => internStatus(gw.store.db, seeded.internId),
      (row) => row?.status === 'running',
      'the intern to run',
    );
    const { runId } = await runtime.submit({
      ...seeded,
      input: 'hello',
      approvalMode: 'self-drive',
      apiKeyHash: hash,
      organizationId: gw.organizationId,
      workspaceId: ws.id,
    });
    const events = await collectEvents(runtime, runId);
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      reason: 'failed',
      error: expect.stringMatching(/workspace's daily budget of \$1 is spent/),
    });
    expect(await gw.store.db.selectFrom('generations').select('id').where('intern_run_id', '=', runId).execute()).toEqual([]);
  }, 30_000);
});

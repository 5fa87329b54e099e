import { ConstantBackoff } from 'cockatiel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InternRuntime } from '../../src/interns/intern-runtime.js';
import { recordingServer } from '../../src/interns/tools/tools.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { collectEvents, internStatus, seedIntern, stepKinds, waitFor } from '../support/interns-runtime.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The interns runtime through the real gateway: intern processes forked from
 * src, the agent's model turns routed to the simulator (which calls the tools
 * a prompt names), http_fetch and notify against local servers (loopback
 * opened to the gateway's network settings), the ledger and the transcript
 * in SQLite and PostgreSQL.
 */
describe.each(testEngines)('interns runtime on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let runtime: InternRuntime;
  let site: Awaited<ReturnType<typeof recordingServer>>;
  let webhook: Awaited<ReturnType<typeof recordingServer>>;
  let key: { secret: string; hash: string; workspaceId: string };

  beforeAll(async () => {
    sim = await startSimulator();
    site = await recordingServer((_req, res) => res.end('prices went up 3%'));
    webhook = await recordingServer((_req, res) => res.writeHead(204).end());
    const catalog = simCatalog(sim.url, ['alpha'], [{ id: 'sim/agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]);
    gw = await startGateway(engine, {
      catalog,
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      internRuntime: { tickMs: 100, leaseMs: 3_000, backoff: new ConstantBackoff(100) },
    });
    runtime = gw.app.internRuntime!;
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'intern caller' } });
    key = { secret: created.body.key, hash: created.body.data.hash, workspaceId: created.body.data.workspace_id };
  }, 30_000);

  afterAll(async () => {
    await gw?.close();
    await sim?.close();
    await site?.close();
    await webhook?.close();
  });

  async function runningIntern(settings: Record<string, unknown> = {}) {
    const seeded = await seedIntern(gw.store.db, {
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
      apiKeyHash: key.hash,
      model: 'sim/agent',
      settings: { allowed_domains: ['127.0.0.1'], webhook_url: `${webhook.url}/hook`, ...settings },
    });
    await runtime.provision(seeded.internId);
    await waitFor(
      () => internStatus(gw.store.db, seeded.internId),
      (row) => row?.status === 'running',
      'the intern to run',
    );
    return seeded;
  }

  const submit = (intern: { internId: string; sessionId: string }, input: string) =>
    runtime.submit({
      ...intern,
      input,
      approvalMode: 'self-drive',
      apiKeyHash: key.hash,
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
    });

  it('provisions an intern: provisioning with progress, then running once its process answers', async () => {
    const { internId } = await seedIntern(gw.store.db, {
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
      apiKeyHash: key.hash,
      model: 'sim/agent',
      settings: {},
    });
    await runtime.provision(internId);
    const first = await internStatus(gw.store.db, internId);
    expect(first?.status === 'provisioning' || first?.status === 'running').toBe(true);
    if (first?.status === 'provisioning') expect(JSON.parse(first.progress ?? '{}')).toMatchObject({ total_steps: 2 });
    await waitFor(
      () => internStatus(gw.store.db, internId),
      (row) => row?.status === 'running',
      'running',
    );
    expect(await internStatus(gw.store.db, internId)).toMatchObject({ progress: null, last_failure_message: null });
  }, 30_000);

  it('runs a task end to end: fetches a page, notifies the webhook with what it found, finishes; every model call is a ledger row of the run', async () => {
    const intern = await runningIntern();
    const before = webhook.received.length;
    const { status, runId } = await submit(intern, `Use http_fetch on ${site.url}/prices then notify me`);
    expect(status).toBe('started');
    const events = await collectEvents(runtime, runId);
    expect(stepKinds(events)).toEqual([
      'input',
      'assistant',
      'tool_call',
      'tool_result',
      'assistant',
      'approval',
      'answer',
      'tool_call',
      'tool_result',
      'assistant',
      'end',
    ]);
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'finished' });

    const fetched = events.find((e) => e.type === 'step' && e.kind === 'tool_result');
    expect(JSON.stringify(fetched)).toContain('prices went up 3%');
    expect(webhook.received.length).toBe(before + 1);
    const report = JSON.parse(webhook.received.at(-1)!.body);
    expect(report).toMatchObject({ type: 'intern.report', intern_id: intern.internId, run_id: runId });
    expect(report.report).toContain('prices went up 3%');

    const rows = await gw.store.db
      .selectFrom('generations')
      .select(['id', 'api_key_hash', 'total_cost', 'intern_run_id'])
      .where('intern_run_id', '=', runId)
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.api_key_hash === key.hash)).toBe(true);
    const run = await gw.store.db.selectFrom('intern_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    const total = rows.reduce((sum, row) => sum + Number(row.total_cost), 0);
    expect(total).toBeGreaterThan(0);
    expect(Number(run.cost)).toBeCloseTo(total, 12);
    expect(run).toMatchObject({ status: 'ended', end_reason: 'finished', steps: 11, claimed_by: null });
    const assistantSteps = await gw.store.db
      .selectFrom('intern_run_steps')
      .select('generation_id')
      .where('run_id', '=', runId)
      .where('kind', '=', 'assistant')
      .execute();
    expect(assistantSteps.map((s) => s.generation_id).sort()).toEqual(rows.map((r) => r.id).sort());
  }, 30_000);

  it("checks the invoking key's spend limit before each model call: a spent key fails the run with no upstream call", async () => {
    const spent = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'spent caller', limit: 0 } });
    const seeded = await seedIntern(gw.store.db, {
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
      apiKeyHash: spent.body.data.hash,
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
      apiKeyHash: spent.body.data.hash,
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
    });
    const events = await collectEvents(runtime, runId);
    expect(events.at(-1)).toMatchObject({ type: 'end', reason: 'failed', error: expect.stringMatching(/limit/i) });
    const rows = await gw.store.db.selectFrom('generations').select('id').where('intern_run_id', '=', runId).execute();
    expect(rows).toEqual([]);
  }, 30_000);

  it("refuses a fetch outside the intern's allowed domains as a tool error the model reads", async () => {
    const intern = await runningIntern({ allowed_domains: ['example.com'] });
    const { runId } = await submit(intern, `Use http_fetch on ${site.url}/prices`);
    const events = await collectEvents(runtime, runId);
    const result = events.find((e) => e.type === 'step' && e.kind === 'tool_result');
    expect(result).toMatchObject({ content: { error: true } });
    expect(JSON.stringify(result)).toContain("not in this intern's allowed domains");
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'finished' });
  }, 30_000);
});

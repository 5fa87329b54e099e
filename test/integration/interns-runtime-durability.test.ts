import type { ServerResponse } from 'node:http';
import { ConstantBackoff } from 'cockatiel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChildHandle, forkIntern } from '../../src/interns/runtime/intern-process.js';
import type { InternRuntimeTuning } from '../../src/interns/runtime/runtime-tuning.js';
import { recordingServer } from '../../src/interns/tools/tools.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { collectEvents, internStatus, runRow, seedIntern, stepKinds, storedSteps, untilStep, waitFor } from '../support/interns-runtime.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * Runs that outlive what happens to them: steering mid-run, the deadline
 * (gateway clock moved by the test), a killed intern process (restarted with
 * backoff, the run resumed), a gateway restarted mid-run (resumed from the
 * database by the next instance), manual pauses and the 409/502/503/504 of
 * submit. The page the intern fetches holds its answer until the test lets
 * it go, so the run is mid-tool-call when things happen to it.
 */
describe.each(testEngines)('interns runtime durability on $name', (engine) => {
  let sim: Simulator;
  let site: Awaited<ReturnType<typeof recordingServer>>;
  let webhook: Awaited<ReturnType<typeof recordingServer>>;
  const held: ServerResponse[] = [];
  const release = () =>
    held.splice(0).forEach((res) => {
      res.end('slow page body');
    });
  const open: { gw?: RunningGateway; database?: TestDatabase }[] = [];

  beforeAll(async () => {
    sim = await startSimulator();
    site = await recordingServer((req, res) => (req.url === '/slow' ? held.push(res) : res.end('quick page body')));
    webhook = await recordingServer((_req, res) => res.writeHead(204).end());
  });
  afterEach(async () => {
    release();
    for (const entry of open.splice(0).reverse()) {
      await entry.gw?.close();
      await entry.database?.drop();
    }
  });
  afterAll(async () => {
    await sim?.close();
    await site?.close();
    await webhook?.close();
  });

  async function gateway(
    tuning: InternRuntimeTuning = {},
    extra: { clock?: ReturnType<typeof testClock>['clock']; databaseUrl?: string } = {},
  ) {
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [
        { id: 'sim/agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        { id: 'sim/slow-agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model@latency=1500' }] },
      ],
    );
    const gw = await startGateway(engine, {
      catalog,
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      internRuntime: { tickMs: 100, leaseMs: 3_000, backoff: new ConstantBackoff(100), ...tuning },
      ...extra,
    });
    open.push({ gw });
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'intern caller' } });
    return {
      gw,
      runtime: gw.app.internRuntime!,
      key: { hash: created.body.data.hash as string, workspaceId: created.body.data.workspace_id as string },
    };
  }

  type Setup = Awaited<ReturnType<typeof gateway>>;

  /** A gateway whose intern processes the test can kill. */
  async function gatewayKeepingChildren() {
    const children: ChildHandle[] = [];
    const setup = await gateway({
      spawn: (id) => {
        const child = forkIntern(id);
        children.push(child);
        return child;
      },
    });
    return { setup, children };
  }

  async function runningIntern({ gw, runtime, key }: Setup, settings: Record<string, unknown> = {}, model = 'sim/agent') {
    const seeded = await seedIntern(gw.store.db, {
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
      apiKeyHash: key.hash,
      model,
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

  const submit = (
    { gw, runtime, key }: Setup,
    intern: { internId: string; sessionId: string },
    input: string,
    approvalMode: 'self-drive' | 'manual' = 'self-drive',
  ) =>
    runtime.submit({
      ...intern,
      input,
      approvalMode,
      apiKeyHash: key.hash,
      organizationId: gw.organizationId,
      workspaceId: key.workspaceId,
    });

  const slowTask = () => `Use http_fetch on ${site.url}/slow then notify me`;

  it('delivers a second input of the session into the open run (steered), before its next model turn', async () => {
    const setup = await gateway();
    const intern = await runningIntern(setup);
    const { runId } = await submit(setup, intern, slowTask());
    await untilStep(setup.gw.store.db, runId, 'tool_call');
    await waitFor(
      async () => held.length,
      (n) => n > 0,
      'the page request',
    );
    await expect(submit(setup, intern, 'Also mention the date')).resolves.toEqual({ status: 'steered', runId });
    release();
    const events = await collectEvents(setup.runtime, runId);
    const kinds = stepKinds(events);
    expect(kinds.slice(0, 5)).toEqual(['input', 'assistant', 'tool_call', 'tool_result', 'steer']);
    const steer = events.find((e) => e.type === 'step' && e.kind === 'steer');
    expect(steer).toMatchObject({ content: { text: 'Also mention the date' } });
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'finished' });
    // A session whose run ended starts a new run.
    await expect(submit(setup, intern, 'hello again')).resolves.toMatchObject({ status: 'started' });
  }, 40_000);

  it("ends a run at its deadline (the intern's deadline_seconds, on the gateway clock) with the reason recorded", async () => {
    const time = testClock(new Date().toISOString());
    const setup = await gateway({}, { clock: time.clock });
    const intern = await runningIntern(setup, { deadline_seconds: 60 });
    const { runId } = await submit(setup, intern, slowTask());
    const row = await runRow(setup.gw.store.db, runId);
    expect(Date.parse(row!.deadline_at) - Date.parse(row!.started_at)).toBe(60_000);
    await untilStep(setup.gw.store.db, runId, 'tool_call');
    time.advance(61_000);
    const events = await collectEvents(setup.runtime, runId);
    expect(events.at(-1)).toMatchObject({ type: 'end', reason: 'deadline' });
    expect(await runRow(setup.gw.store.db, runId)).toMatchObject({ status: 'ended', end_reason: 'deadline', claimed_by: null });
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await storedSteps(setup.gw.store.db, runId)).at(-1)?.kind).toBe('end');
  }, 40_000);

  it('restarts a killed intern process with backoff and resumes its run from the last recorded step', async () => {
    const { setup, children } = await gatewayKeepingChildren();
    const intern = await runningIntern(setup);
    const { runId } = await submit(setup, intern, slowTask());
    await untilStep(setup.gw.store.db, runId, 'tool_call');
    const reports = webhook.received.length;
    children.at(-1)!.kill('SIGKILL');
    const ended = await waitFor(
      () => runRow(setup.gw.store.db, runId),
      (run) => run?.status === 'ended',
      'the resumed run to end',
      30_000,
    );
    expect(ended).toMatchObject({ end_reason: 'finished' });
    expect(children.length).toBeGreaterThanOrEqual(2);
    const steps = await storedSteps(setup.gw.store.db, runId);
    const interrupted = steps.find((s) => s.kind === 'tool_result');
    expect(JSON.parse(interrupted!.content)).toMatchObject({
      name: 'http_fetch',
      error: true,
      content: expect.stringContaining('interrupted'),
    });
    expect(steps.map((s) => s.kind).slice(4)).toEqual(['assistant', 'approval', 'answer', 'tool_call', 'tool_result', 'assistant', 'end']);
    expect(webhook.received.length).toBe(reports + 1);
    expect(steps.map((s) => s.seq)).toEqual(steps.map((_, i) => i + 1));
  }, 40_000);

  it('bills a model call once when the intern process dies during it: the gateway records the reply and the restarted process resumes after that turn', async () => {
    const { setup, children } = await gatewayKeepingChildren();
    const intern = await runningIntern(setup, {}, 'sim/slow-agent');
    const modelCalls = async () => {
      const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as { requests: Record<string, number> };
      return Object.entries(stats.requests).reduce((sum, [path, n]) => (path.endsWith('/chat/completions') ? sum + n : sum), 0);
    };
    const before = await modelCalls();
    const { runId } = await submit(setup, intern, 'Say hello');
    await waitFor(modelCalls, (n) => n > before, 'the model call');
    children.at(-1)!.kill('SIGKILL');
    const ended = await waitFor(
      () => runRow(setup.gw.store.db, runId),
      (run) => run?.status === 'ended',
      'the resumed run to end',
      30_000,
    );
    expect(ended).toMatchObject({ end_reason: 'finished' });
    expect(children.length).toBeGreaterThanOrEqual(2);
    const steps = await setup.gw.store.db
      .selectFrom('intern_run_steps')
      .select(['kind', 'generation_id'])
      .where('run_id', '=', runId)
      .orderBy('seq')
      .execute();
    expect(steps.map((s) => s.kind)).toEqual(['input', 'assistant', 'end']);
    const ledger = await setup.gw.store.db.selectFrom('generations').select('id').where('intern_run_id', '=', runId).execute();
    expect(ledger.map((row) => row.id)).toEqual([steps[1]!.generation_id]);
    expect(await modelCalls()).toBe(before + 1);
  }, 40_000);

  it('resumes a run in the next gateway instance after the first one is restarted mid-run', async () => {
    const database = await engine.create();
    open.push({ database });
    const first = await gateway({}, { databaseUrl: database.url });
    const intern = await runningIntern(first);
    const { runId } = await submit(first, intern, slowTask());
    await untilStep(first.gw.store.db, runId, 'tool_call');
    await first.gw.close();
    open.splice(
      open.findIndex((entry) => entry.gw === first.gw),
      1,
    );

    const second = await gateway({}, { databaseUrl: database.url });
    const ended = await waitFor(
      () => runRow(second.gw.store.db, runId),
      (run) => run?.status === 'ended',
      'the run to end on the second instance',
      30_000,
    );
    expect(ended).toMatchObject({ end_reason: 'finished' });
    const steps = await storedSteps(second.gw.store.db, runId);
    expect(steps.map((s) => s.kind)).toEqual([
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
    const rows = await second.gw.store.db.selectFrom('generations').select('id').where('intern_run_id', '=', runId).execute();
    expect(rows).toHaveLength(3);
  }, 60_000);

  it('cancels a run from another gateway instance than the one driving it: the run ends cancelled and its driver stops it', async () => {
    const database = await engine.create();
    open.push({ database });
    const driver = await gateway({}, { databaseUrl: database.url });
    const other = await gateway({}, { databaseUrl: database.url });
    const intern = await runningIntern(driver);
    const { runId } = await submit(driver, intern, slowTask());
    await untilStep(driver.gw.store.db, runId, 'tool_call');
    await waitFor(
      async () => held.length,
      (n) => n > 0,
      'the page request',
    );
    const reports = webhook.received.length;
    await other.runtime.cancel(runId, 'the caller left');
    expect(await runRow(driver.gw.store.db, runId)).toMatchObject({
      status: 'ended',
      end_reason: 'cancelled',
      error: 'the caller left',
      claimed_by: null,
    });
    release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await storedSteps(driver.gw.store.db, runId)).at(-1)?.kind).toBe('end');
    expect(webhook.received.length).toBe(reports);
    // Cancelling an ended run changes nothing.
    await other.runtime.cancel(runId, 'again');
    expect(await runRow(driver.gw.store.db, runId)).toMatchObject({ end_reason: 'cancelled', error: 'the caller left' });
  }, 40_000);

  it("cancels a manual run whose question outlives its interaction deadline (5 minutes by default, the intern's own otherwise) on the gateway clock", async () => {
    const time = testClock(new Date().toISOString());
    const setup = await gateway({}, { clock: time.clock });
    const db = setup.gw.store.db;
    const intern = await runningIntern(setup, { max_open_questions: 5 });
    const { runId } = await submit(setup, intern, 'Please ask_question about the city', 'manual');
    const paused = await waitFor(
      () => runRow(db, runId),
      (run) => run?.status === 'awaiting_input',
      'the question',
    );
    expect(Date.parse(paused!.interaction_deadline_at!) - time.clock().getTime()).toBe(300_000);
    const events = collectEvents(setup.runtime, runId);
    time.advance(299_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await runRow(db, runId)).toMatchObject({ status: 'awaiting_input' });
    time.advance(2_000);
    // An event feed still open on the run (what a chat stream reads) sees it end.
    expect((await events).at(-1)).toEqual({ type: 'end', reason: 'cancelled', error: expect.stringContaining('interaction deadline') });
    expect(await runRow(db, runId)).toMatchObject({
      status: 'ended',
      end_reason: 'cancelled',
      pending: null,
      interaction_deadline_at: null,
      claimed_by: null,
    });
    await expect(setup.runtime.answer(runId, 'Oslo')).rejects.toMatchObject({ statusCode: 400 });

    const brief = await runningIntern(setup, { interaction_deadline_seconds: 30 });
    const second = await submit(setup, brief, 'Please ask_question about the city', 'manual');
    const waiting = await waitFor(
      () => runRow(db, second.runId),
      (run) => run?.status === 'awaiting_input',
      'the second question',
    );
    expect(Date.parse(waiting!.interaction_deadline_at!) - time.clock().getTime()).toBe(30_000);
    time.advance(31_000);
    await waitFor(
      () => runRow(db, second.runId),
      (run) => run?.status === 'ended',
      'the second run to be cancelled',
    );
    expect(await runRow(db, second.runId)).toMatchObject({ end_reason: 'cancelled' });
  }, 40_000);

  it('pauses a manual run on its question; the intern is busy for another manual run until it is answered', async () => {
    const setup = await gateway();
    const intern = await runningIntern(setup, { max_open_questions: 1 });
    const { runId } = await submit(setup, intern, 'Please ask_question about the city', 'manual');
    await waitFor(
      () => runRow(setup.gw.store.db, runId),
      (run) => run?.status === 'awaiting_input',
      'the question',
    );
    const other = await seedSession(setup, intern.internId);
    await expect(submit(setup, { internId: intern.internId, sessionId: other }, 'another task', 'manual')).rejects.toMatchObject({
      statusCode: 503,
      metadata: { reason: 'busy', retryable: true },
    });
    const seen = [];
    for await (const event of setup.runtime.events(runId, AbortSignal.timeout(20_000))) {
      seen.push(event);
      if (event.type === 'pending') await setup.runtime.answer(runId, 'Oslo');
    }
    expect(seen.find((e) => e.type === 'pending')).toMatchObject({ kind: 'question' });
    expect(seen.find((e) => e.type === 'step' && e.kind === 'answer')).toMatchObject({ content: { answer: 'Oslo', by: 'user' } });
    expect(seen.at(-1)).toEqual({ type: 'end', reason: 'finished' });
    await expect(setup.runtime.answer(runId, 'late')).rejects.toMatchObject({ statusCode: 400 });
  }, 40_000);

  it("answers a self-drive question with the intern's fallback answer", async () => {
    const setup = await gateway();
    const intern = await runningIntern(setup, { fallback_answer: 'Assume Oslo.' });
    const { runId } = await submit(setup, intern, 'Please ask_question about the city');
    const events = await collectEvents(setup.runtime, runId);
    expect(events.find((e) => e.type === 'step' && e.kind === 'answer')).toMatchObject({
      content: { answer: 'Assume Oslo.', by: 'fallback' },
    });
    expect(events.some((e) => e.type === 'pending')).toBe(false);
  }, 40_000);

  it('refuses submits: 409 when the intern is not running, 502 when its process cannot be started here, 504 when the process does not acknowledge', async () => {
    const dropRuns = (child: ChildHandle): ChildHandle =>
      Object.assign(Object.create(child) as ChildHandle, {
        send: (message: { type: string }, callback?: (error: Error | null) => void) =>
          message.type === 'run' ? true : child.send(message as never, callback),
      });
    /** Interns whose processes die as they start. */
    const doomed = new Set<string>();
    const spawn = (id: string) => {
      const child = forkIntern(id);
      if (doomed.has(id)) child.kill('SIGKILL');
      return dropRuns(child);
    };
    const setup = await gateway({ ackTimeoutMs: 300, spawn });
    const queued = await seedIntern(setup.gw.store.db, {
      organizationId: setup.gw.organizationId,
      workspaceId: setup.key.workspaceId,
      apiKeyHash: setup.key.hash,
      model: 'sim/agent',
      settings: {},
    });
    await expect(submit(setup, queued, 'x')).rejects.toMatchObject({ statusCode: 409, metadata: { reason: 'intern_not_ready' } });
    // Running in the database, but its process does not come up on this instance (it tries to start it on demand).
    doomed.add(queued.internId);
    await setup.gw.store.db.updateTable('interns').set({ status: 'running' }).where('id', '=', queued.internId).execute();
    await expect(submit(setup, queued, 'x')).rejects.toMatchObject({ statusCode: 502, metadata: { reason: 'intern_unreachable' } });

    const intern = await runningIntern(setup);
    await expect(submit(setup, intern, 'x')).rejects.toMatchObject({ statusCode: 504, metadata: { reason: 'timeout' } });
    const run = await setup.gw.store.db
      .selectFrom('intern_runs')
      .selectAll()
      .where('session_id', '=', intern.sessionId)
      .executeTakeFirstOrThrow();
    expect(run).toMatchObject({ status: 'ended', end_reason: 'failed' });
  }, 40_000);

  it('suspends an intern: its open run ends stopped and its process stops; submits then answer 409', async () => {
    const setup = await gateway();
    const intern = await runningIntern(setup);
    const { runId } = await submit(setup, intern, slowTask());
    await untilStep(setup.gw.store.db, runId, 'tool_call');
    await setup.runtime.suspend(intern.internId);
    expect(await runRow(setup.gw.store.db, runId)).toMatchObject({ status: 'ended', end_reason: 'stopped' });
    expect(await internStatus(setup.gw.store.db, intern.internId)).toMatchObject({ status: 'stopped' });
    await expect(submit(setup, intern, 'x')).rejects.toMatchObject({ statusCode: 409 });
  }, 40_000);

  async function seedSession({ gw, key }: Setup, internId: string): Promise<string> {
    const id = `isess_other_${Date.now()}`;
    await gw.store.db
      .insertInto('intern_sessions')
      .values({
        id,
        intern_id: internId,
        organization_id: gw.organizationId,
        api_key_hash: key.hash,
        origin: 'invoke',
        created_at: new Date().toISOString(),
      })
      .execute();
    return id;
  }
});

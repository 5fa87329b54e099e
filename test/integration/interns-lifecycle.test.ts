import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConstantBackoff } from 'cockatiel';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERN_PROGRAMME_TOPIC } from '../../src/interns/flag-cache.js';
import { type ChildHandle, forkIntern } from '../../src/interns/runtime/intern-process.js';
import type { ParentMessage } from '../../src/interns/runtime/protocol.js';
import { recordingServer } from '../../src/interns/tools/tools.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { enroll } from '../../src/store/repositories/interns.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { waitFor } from '../support/interns-runtime.js';
import { simCatalog } from '../support/sim-gateway.js';

const meta = (reason: string, retryable: boolean) => ({ reason, retryable });

/** How the next intern processes behave: as they should, exiting at once, or alive but deaf to run assignments. */
type Mode = 'normal' | 'exit-at-start' | 'drop-runs';

/**
 * Every transition of spec §3 and the lifecycle through HTTP, with the real
 * runtime: intern processes forked from src, the agent's model turns answered
 * by the simulator, a page held open by the test so a run is mid-tool-call
 * when it is steered or suspended. Faults come from real processes too: one
 * that exits at start, one whose run assignments are lost, one killed.
 */
describe.each(testEngines)('interns lifecycle over HTTP on $name', (engine) => {
  let sim: Simulator;
  let site: Awaited<ReturnType<typeof recordingServer>>;
  let webhook: Awaited<ReturnType<typeof recordingServer>>;
  let gateway: RunningGateway;
  let key: string;
  let mode: Mode = 'normal';
  const children: ChildHandle[] = [];
  const held: ServerResponse[] = [];
  const release = () =>
    held.splice(0).forEach((res) => {
      res.end('slow page body');
    });
  const exitScript = join(mkdtempSync(join(tmpdir(), 'mg-exit-')), 'exit.mjs');

  /** A forked intern whose messages pass through, except run assignments while mode is drop-runs. */
  function spawn(internId: string): ChildHandle {
    if (mode === 'exit-at-start') return fork(exitScript, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }) as ChildHandle;
    const child = forkIntern(internId);
    children.push(child);
    return {
      send: (message: ParentMessage, callback?: (error: Error | null) => void) =>
        mode === 'drop-runs' && message.type === 'run' ? true : child.send(message, callback),
      on: (event: 'message' | 'exit', listener: (...args: any[]) => void) => child.on(event as 'message', listener),
      kill: (signal) => child.kill(signal),
      get connected() {
        return child.connected;
      },
      get pid() {
        return child.pid;
      },
    } as ChildHandle;
  }

  beforeAll(async () => {
    writeFileSync(exitScript, 'process.exit(3);\n');
    sim = await startSimulator();
    site = await recordingServer((req, res) => (req.url === '/slow' ? held.push(res) : res.end('quick page body')));
    webhook = await recordingServer((_req, res) => res.writeHead(204).end());
    gateway = await startGateway(engine, {
      catalog: simCatalog(sim.url, ['alpha'], [{ id: 'sim/agent', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]),
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      // A killed process is restarted only after a minute: long enough to see the 502 while it is down.
      internRuntime: {
        tickMs: 100,
        leaseMs: 3_000,
        backoff: new ConstantBackoff(60_000),
        ackTimeoutMs: 1_000,
        startTimeoutMs: 10_000,
        spawn,
      },
    });
    await enroll(gateway.store.db, gateway.organizationId, new Date().toISOString());
    await gateway.changes.publish(INTERN_PROGRAMME_TOPIC, gateway.organizationId);
    key = gateway.managementKey;
  }, 30_000);
  afterAll(async () => {
    release();
    await gateway?.close();
    await sim?.close();
    await site?.close();
    await webhook?.close();
  });

  const get = (id: string) => call(gateway, 'GET', `/interns/${id}`, { key });
  const untilStatus = (id: string, status: string) =>
    waitFor(
      async () => (await get(id)).body,
      (body) => body.status === status,
      `intern ${id} ${status}`,
    );
  const session = (id: string, sessionId: string) => call(gateway, 'GET', `/interns/${id}/sessions/${sessionId}`, { key });
  const untilRunsEnded = (id: string, sessionId: string, count: number) =>
    waitFor(
      async () => (await session(id, sessionId)).body,
      (body) => body.data?.runs.length === count && body.data.runs.every((r: { status: string }) => r.status === 'ended'),
      'runs to end',
    );
  const invoke = (id: string, body: Record<string, unknown>) => call(gateway, 'POST', `/interns/${id}/invoke`, { key, body });

  async function runningIntern(extra: Record<string, unknown> = {}) {
    // Each call is a new intern: without a key of its own, the same body within the hour would be the same create.
    const created = await call(gateway, 'POST', '/interns', {
      key,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        name: 'helper',
        model: 'sim/agent',
        provision: true,
        allowed_domains: ['127.0.0.1'],
        webhook_url: `${webhook.url}/hook`,
        ...extra,
      },
    });
    expect(created.status).toBe(201);
    expect(['provisioning', 'running']).toContain(created.body.status);
    if (created.body.status === 'provisioning')
      expect(created.body.progress).toMatchObject({ step_number: expect.any(Number), total_steps: expect.any(Number) });
    const running = await untilStatus(created.body.id, 'running');
    expect(running).toMatchObject({ progress: null, last_failure_message: null });
    return running.id as string;
  }

  it('queued -> provisioning -> running; invoke starts a run (202 started) that finishes, and its owner reads the transcript', async () => {
    const id = await runningIntern();
    expect((await call(gateway, 'GET', '/interns?status=running', { key })).body.data.map((i: { id: string }) => i.id)).toContain(id);
    const reports = webhook.received.length;
    const started = await invoke(id, { input: `Use http_fetch on ${site.url}/quick then notify me` });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ session_id: expect.stringMatching(/^isess_/), status: 'started' });
    const view = await untilRunsEnded(id, started.body.session_id, 1);
    const [run] = view.data.runs;
    expect(run).toMatchObject({
      status: 'ended',
      end_reason: 'finished',
      approval_mode: 'self-drive',
      started_at: expect.any(String),
      ended_at: expect.any(String),
    });
    expect(run.cost).toBeGreaterThanOrEqual(0);
    const kinds = run.transcript.map((s: { kind: string }) => s.kind);
    expect(kinds[0]).toBe('input');
    expect(kinds).toEqual(expect.arrayContaining(['tool_call', 'tool_result', 'end']));
    expect(run.transcript[0].content).toMatchObject({ text: expect.stringContaining('http_fetch') });
    expect(webhook.received.length).toBe(reports + 1);
    const ledger = await gateway.store.db.selectFrom('generations').select('intern_run_id').where('intern_run_id', '=', run.id).execute();
    expect(ledger.length).toBeGreaterThan(0);

    // Another key of the organization does not see (or continue) this session.
    const other = await call(gateway, 'POST', '/keys', { key, body: { name: 'other caller' } });
    expect((await call(gateway, 'GET', `/interns/${id}/sessions/${started.body.session_id}`, { key: other.body.key })).status).toBe(404);
    const foreign = await call(gateway, 'POST', `/interns/${id}/invoke`, {
      key: other.body.key,
      body: { input: 'hi', session_id: started.body.session_id },
    });
    expect([foreign.status, foreign.body.error.metadata]).toEqual([404, meta('not_found', false)]);
  }, 60_000);

  it('running -> running (steered) while a run is going; a session whose run ended starts a new run', async () => {
    const id = await runningIntern();
    const started = await invoke(id, { input: `Use http_fetch on ${site.url}/slow then notify me` });
    expect(started.body.status).toBe('started');
    await waitFor(
      async () => held.length,
      (n) => n > 0,
      'the page request',
    );
    const steered = await invoke(id, { input: 'Also mention the date', session_id: started.body.session_id });
    expect([steered.status, steered.body]).toEqual([202, { session_id: started.body.session_id, status: 'steered' }]);
    release();
    const view = await untilRunsEnded(id, started.body.session_id, 1);
    expect(view.data.runs[0].transcript.find((s: { kind: string }) => s.kind === 'steer')?.content).toEqual({
      text: 'Also mention the date',
    });
    const again = await invoke(id, { input: 'hello again', session_id: started.body.session_id });
    expect([again.status, again.body.status]).toEqual([202, 'started']);
    expect((await untilRunsEnded(id, started.body.session_id, 2)).data.runs).toHaveLength(2);
  }, 60_000);

  it('running -> stopped by suspend (the open run ends stopped, invoke answers 409), stopped -> running by provision; conflicts are 409', async () => {
    const id = await runningIntern();
    const again = await call(gateway, 'POST', `/interns/${id}/provision`, { key });
    expect([again.status, again.body.error.metadata]).toEqual([409, { reason: 'conflict', retryable: false }]);
    const started = await invoke(id, { input: `Use http_fetch on ${site.url}/slow then notify me` });
    await waitFor(
      async () => held.length,
      (n) => n > 0,
      'the page request',
    );
    const suspended = await call(gateway, 'POST', `/interns/${id}/suspend`, { key });
    expect([suspended.status, suspended.body]).toEqual([200, { suspended: true }]);
    release();
    expect((await get(id)).body.status).toBe('stopped');
    const ended = await untilRunsEnded(id, started.body.session_id, 1);
    expect(ended.data.runs[0].end_reason).toBe('stopped');
    const refused = await invoke(id, { input: 'hi' });
    expect([refused.status, refused.body.error.metadata]).toEqual([409, meta('intern_not_ready', true)]);
    expect((await call(gateway, 'POST', `/interns/${id}/suspend`, { key })).body).toEqual({ suspended: true });
    const provisioned = await call(gateway, 'POST', `/interns/${id}/provision`, { key });
    expect([provisioned.status, provisioned.body]).toEqual([202, { provisioning: true }]);
    await untilStatus(id, 'running');
  }, 60_000);

  it('delete: 202 deleting, then the intern is gone', async () => {
    const id = await runningIntern();
    const deleted = await call(gateway, 'DELETE', `/interns/${id}`, { key });
    expect([deleted.status, deleted.body]).toEqual([202, { deleting: true }]);
    await waitFor(
      async () => (await get(id)).status,
      (status) => status === 404,
      'the intern to be gone',
    );
    expect((await get(id)).body.error.metadata).toEqual(meta('not_found', false));
  }, 60_000);

  it('destroying -> destroy_failed with last_failure_message when its rows cannot be deleted; DELETE again finishes it', async () => {
    const id = await runningIntern();
    // The database refuses to delete this intern's row, as a full disk or a lost connection would.
    const refuse =
      engine.name === 'sqlite'
        ? [`CREATE TRIGGER keep_intern BEFORE DELETE ON interns WHEN OLD.id = '${id}' BEGIN SELECT RAISE(ABORT, 'the disk is full'); END`]
        : [
            "CREATE FUNCTION keep_intern() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the disk is full'; END $$ LANGUAGE plpgsql",
            `CREATE TRIGGER keep_intern BEFORE DELETE ON interns FOR EACH ROW WHEN (OLD.id = '${id}') EXECUTE FUNCTION keep_intern()`,
          ];
    for (const statement of refuse) await sql.raw(statement).execute(gateway.store.db);
    const deleted = await call(gateway, 'DELETE', `/interns/${id}`, { key });
    expect(deleted.status).toBe(202);
    const failed = await waitFor(
      async () => (await get(id)).body,
      (body) => body.status === 'destroy_failed',
      'destroy_failed',
    );
    expect(failed.last_failure_message).toMatch(/the disk is full/);
    const invoked = await call(gateway, 'POST', `/interns/${id}/invoke`, { key, body: { input: 'hi' } });
    expect([invoked.status, invoked.body.error.metadata]).toEqual([409, meta('intern_not_ready', true)]);

    await sql.raw(engine.name === 'sqlite' ? 'DROP TRIGGER keep_intern' : 'DROP TRIGGER keep_intern ON interns').execute(gateway.store.db);
    expect((await call(gateway, 'DELETE', `/interns/${id}`, { key })).status).toBe(202);
    await waitFor(
      async () => (await get(id)).status,
      (status) => status === 404,
      'the intern to be gone',
    );
  }, 60_000);

  it('provisioning -> failed with last_failure_message when the process does not start; failed -> running by provision', async () => {
    mode = 'exit-at-start';
    try {
      const created = await call(gateway, 'POST', '/interns', { key, body: { name: 'doomed', model: 'sim/agent', provision: true } });
      const failed = await untilStatus(created.body.id, 'failed');
      expect(failed.last_failure_message).toMatch(/did not start/);
      mode = 'normal';
      expect((await call(gateway, 'POST', `/interns/${created.body.id}/provision`, { key })).status).toBe(202);
      await untilStatus(created.body.id, 'running');
    } finally {
      mode = 'normal';
    }
  }, 60_000);

  it('504 timeout when the intern does not acknowledge the run; 502 intern_unreachable when its process is down', async () => {
    const id = await runningIntern();
    mode = 'drop-runs';
    try {
      const late = await invoke(id, { input: 'hello' });
      expect([late.status, late.body.error.metadata]).toEqual([504, meta('timeout', true)]);
    } finally {
      mode = 'normal';
    }
    const child = children.at(-1)!;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const down = await invoke(id, { input: 'hello' });
    expect([down.status, down.body.error.metadata]).toEqual([502, meta('intern_unreachable', true)]);
  }, 60_000);
});

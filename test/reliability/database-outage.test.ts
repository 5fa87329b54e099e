import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { openStore, type Store } from '../../src/store/database.js';
import type { ServingProcess } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { PROCESS_TESTS } from '../support/process-tests.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/until.js';
import { chat, createKey, load, logLines, request, serveFromSource, warnings, writeSimConfig } from './shared-services.js';

const postgres = testEngines.find((engine) => engine.name === 'postgres');

describe.skipIf(!postgres)('PostgreSQL going away and coming back', PROCESS_TESTS, () => {
  let sim: Simulator;
  let database: TestDatabase;
  let proxy: TcpProxy;
  let store: Store;
  let dir: string;
  let config: string;
  /** The database's URL through the proxy: what the gateway is given. */
  let proxiedUrl: string;

  beforeAll(async () => {
    sim = await startSimulator();
    database = await postgres!.create();
    const direct = new URL(database.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.host = proxy.address;
    proxiedUrl = proxied.toString();
    store = openStore(database.url);
    dir = mkdtempSync(join(tmpdir(), 'mg-database-outage-'));
    config = writeSimConfig(dir, sim.url);
  });
  afterAll(async () => {
    await store?.close();
    await proxy?.close();
    await database?.drop();
    await sim?.close();
  });

  const serve = (outbox: string) =>
    serveFromSource({
      GATEWAY_CONFIG: config,
      DATABASE_URL: proxiedUrl,
      LEDGER_OUTBOX_DIR: join(dir, outbox),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });

  /** The gateway's readiness once it is back, with every ledger row kept meanwhile written. */
  const settled = (serving: ServingProcess) =>
    until(
      () => request(serving, 'GET', '/ready'),
      ({ status, body }) => status === 200 && body.checks.ledger_outbox_rows === 0,
      20_000,
    );

  const ledgerOf = (hash: string) =>
    store.db
      .selectFrom('generations')
      .select(['id', 'total_cost'])
      .where('api_key_hash', '=', hash)
      .where('status', '=', 'success')
      .execute();
  const usageOf = async (hash: string) =>
    (await store.db.selectFrom('api_keys').select('usage').where('hash', '=', hash).executeTakeFirstOrThrow()).usage;

  it('stays up under load: known keys are served, an unknown one gets 503, /ready says so, and every answer is in the ledger, billed once', async () => {
    const serving = await serve('outbox-load');
    try {
      const known = await createKey(serving, 'known');
      const unknown = await createKey(serving, 'never used before the outage');
      expect((await chat(serving, known.key)).status).toBe(200);

      const traffic = load(8, () => chat(serving, known.key));
      await until(
        () => traffic.answers.length,
        (n) => n >= 20,
      );
      const warningsBefore = warnings(serving).length;
      await proxy.cut();
      const atCut = traffic.answers.length;
      await until(
        () => traffic.answers.length,
        (n) => n >= atCut + 40,
      );

      expect(await request(serving, 'GET', '/health')).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await until(
        () => request(serving, 'GET', '/ready'),
        ({ status }) => status === 503,
      );
      expect(ready.status).toBe(503);
      expect(ready.body.error.metadata.checks.database).toBe('unreachable');
      const refused = await chat(serving, unknown.key);
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 503, message: expect.stringContaining('database is unavailable') });
      // Long enough for the background loops (video poller, interns' runtime: each second) to fail a few times too.
      await new Promise((resolve) => setTimeout(resolve, 2_500));

      await proxy.restore();
      await settled(serving);
      const answers = await traffic.stop();
      expect(serving.child.exitCode).toBeNull();
      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);

      const rows = await ledgerOf(known.hash);
      const ids = new Set(rows.map((row) => row.id));
      expect(answers.filter((answer) => !ids.has(answer.body.id))).toEqual([]);
      expect(rows).toHaveLength(answers.length + 1);
      const billed = rows.reduce((sum, row) => sum + row.total_cost, 0);
      expect(billed).toBeGreaterThan(0);
      expect(await usageOf(known.hash)).toBeCloseTo(billed, 12);
      // Said once, whatever failed meanwhile: connections, probes, the refused request.
      expect(logLines(serving, 'The database is unavailable')).toHaveLength(1);
      expect(warnings(serving).slice(warningsBefore)).toEqual(logLines(serving, 'The database is unavailable'));
    } finally {
      await proxy.restore();
      await serving.stop('SIGKILL');
    }
  }, 90_000);

  it('keeps the rows it accepted while the database was away through a crash: the next start writes them', async () => {
    let serving = await serve('outbox-crash');
    try {
      const { key, hash } = await createKey(serving, 'crash');
      expect((await chat(serving, key)).status).toBe(200);
      await proxy.cut();
      const answered: string[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await chat(serving, key);
        expect(answer.status).toBe(200);
        answered.push(answer.body.id);
      }
      await serving.stop('SIGKILL');
      await proxy.restore();
      expect((await ledgerOf(hash)).map((row) => row.id)).not.toContain(answered[0]);

      serving = await serve('outbox-crash');
      await settled(serving);
      const ids = (await ledgerOf(hash)).map((row) => row.id);
      expect(ids).toEqual(expect.arrayContaining(answered));
      expect(ids).toHaveLength(answered.length + 1);
    } finally {
      await proxy.restore();
      await serving.stop('SIGKILL');
    }
  });

  it('holds a key to its limit while the database is away: what it spent meanwhile counts', async () => {
    const serving = await serve('outbox-limit');
    try {
      // A short answer, so that the most a request can cost (what admission reserves) is close to what it costs.
      const short = { max_tokens: 16 };
      const { key: probe } = await createKey(serving, 'cost probe');
      const cost = (await chat(serving, probe, short)).body.usage.cost as number;
      const limit = cost * 3.5;
      const { key, hash } = await createKey(serving, 'limited', limit);
      expect((await chat(serving, key, short)).status).toBe(200);
      await proxy.cut();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await chat(serving, key, short)).status);
      expect(statuses).toContain(402);
      expect(statuses.filter((status) => status !== 200 && status !== 402)).toEqual([]);
      await proxy.restore();
      await settled(serving);
      const rows = await ledgerOf(hash);
      expect(rows).toHaveLength(1 + statuses.filter((status) => status === 200).length);
      expect(await usageOf(hash)).toBeLessThanOrEqual(limit);
    } finally {
      await proxy.restore();
      await serving.stop('SIGKILL');
    }
  });
});

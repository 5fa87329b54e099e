// The analytics endpoints over a month of a million generations, on SQLite and PostgreSQL: how long the ledger takes
// to fill through its own write path, and how long GET /activity, POST /analytics/query, the datasets and
// GET /benchmarks take through the real server. See bench/README.md ("Analytics").
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { ledgerWrites } from '../src/accounting/ledger-writes.js';
import { FOLD_DELAY_MS } from '../src/accounting/usage-day-folds.js';
import { bootstrap } from '../src/accounts/bootstrap.js';
import { createApiKey } from '../src/accounts/create-api-key.js';
import { activityQuery } from '../src/analytics/activity.js';
import { foldSessionCosts } from '../src/datasets/session-cost-folds.js';
import { openStore, type Store } from '../src/store/database.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { foldNextUsageDay } from '../src/store/repositories/usage-daily.js';
import { queryUsage } from '../src/store/repositories/usage-hourly.js';
import type { Database as Schema } from '../src/store/schema.js';
import { newUuid } from '../src/util/ids.js';
import { type Caller, ledgerRows, MODEL_IDS, SHAPE } from './analytics-rows.js';
import { ensureBuilt } from './ensure-built.js';
import { freePort } from './free-port.js';
import { logTail, Processes } from './processes.js';
import { waitUntilReady } from './readiness.js';
import { runStamp, writeResults } from './results-file.js';
import { MANAGEMENT_KEY } from './routes.js';
import { summarize } from './summarize.js';
import { table } from './table.js';

const ROWS = Number(process.env.BENCH_ANALYTICS_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ANALYTICS_RUNS ?? 20);
/** Rows a commit: PostgreSQL binds at most 65,535 parameters a statement, and a row has 40. */
const BATCH = 1_000;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

interface Database {
  engine: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

function sqliteDatabase(): Database {
  const dir = mkdtempSync(join(tmpdir(), 'bench-analytics-'));
  return {
    engine: 'sqlite',
    url: `sqlite:${join(dir, 'gateway.sqlite')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A private schema of the given database, dropped afterwards (as the tests' databases are). */
async function postgresDatabase(baseUrl: string): Promise<Database> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { engine: 'postgres', url: url.toString(), drop: () => admin(`DROP SCHEMA ${schema} CASCADE`) };
}

/** The organization as `serve` makes it, two more workspaces, and the keys whose rows fill the ledger. */
async function organization(store: Store, now: Date): Promise<{ organizationId: string; callers: Caller[]; workspaces: string[] }> {
  const clock = () => now;
  const { organizationId } = await bootstrap(store.db, clock, MANAGEMENT_KEY);
  const first = await store.db
    .selectFrom('workspaces')
    .select('id')
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const workspaces = [first.id];
  for (let i = 1; i < SHAPE.workspaces; i++) {
    const id = newUuid();
    await store.db
      .insertInto('workspaces')
      .values({ id, organization_id: organizationId, name: `Team ${i}`, slug: `team-${i}`, is_default: 0, created_at: now.toISOString() })
      .execute();
    workspaces.push(id);
  }
  const callers: Caller[] = [];
  for (let i = 0; i < SHAPE.keys; i++) {
    const workspaceId = workspaces[i % workspaces.length]!;
    const { row } = await createApiKey(store.db, { organizationId, workspaceId, name: `app ${i + 1}` }, now.toISOString());
    callers.push({ hash: row.hash, workspaceId });
  }
  return { organizationId, callers, workspaces };
}

/** Writes the month through the gateway's ledger path (rows, key counters, rollups in one commit per batch), timed. */
interface Filled {
  seconds: number;
  rollupRows: number;
  /** The days folded into usage_daily after the fill, and the longest fold of one (on PostgreSQL it holds ledger commits that long). */
  foldedDays: number;
  longestFoldMs: number;
  /** The session-cost fold of the whole window, as a server's first pass after the month would make it. */
  sessionFoldMs: number;
}

/**
 * Writes the month through the ledger's own path (its rows are of earlier days than `now`, so each commit adds them to
 * their days too), then folds the days as a server running through the month would have, timing each day's fold.
 */
async function fill(store: Store, organizationId: string, callers: Caller[], now: Date): Promise<Filled> {
  const write = ledgerWrites(store);
  const started = performance.now();
  let written = 0;
  for (const rows of ledgerRows(callers, organizationId, ROWS, now, BATCH)) {
    await write(rows, now);
    written += rows.length;
    if (written % 100_000 === 0)
      process.stderr.write(`  ${written.toLocaleString('en')} rows, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  let longestFoldMs = 0;
  let foldedDays = 0;
  for (;;) {
    const foldStarted = performance.now();
    const day = await foldNextUsageDay(store.db, store.engine, new Date(now.getTime() - FOLD_DELAY_MS).toISOString().slice(0, 10));
    if (day === undefined) break;
    foldedDays++;
    longestFoldMs = Math.max(longestFoldMs, performance.now() - foldStarted);
  }
  const sessionFoldStarted = performance.now();
  await foldSessionCosts(store, now);
  const sessionFoldMs = performance.now() - sessionFoldStarted;
  const { count } = await store.db
    .selectFrom('usage_hourly')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return { seconds, rollupRows: Number(count), foldedDays, longestFoldMs, sessionFoldMs };
}

interface Query {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** What the route asks the database, run in this process: GET /activity reports no query time of its own. */
  direct?: (db: Kysely<Schema>) => Promise<unknown>;
}

/** What dashboards ask: the activity page, the analytics charts of the last 30 days (hours for the last 7), the datasets and benchmarks. */
function queries(now: Date, organizationId: string, models: readonly string[], workspace: string): Query[] {
  const days = (n: number) => ({ start: new Date(now.getTime() - n * 86_400_000).toISOString(), end: now.toISOString() });
  const analytics = (name: string, body: object): Query => ({ name, method: 'POST', path: '/api/v1/analytics/query', body });
  const get = (path: string): Query => ({ name: `GET ${path}`, method: 'GET', path: `/api/v1${path}` });
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
  return [
    ...[false, true].map((byWorkspace) => ({
      name: byWorkspace ? 'GET /activity?group_by=workspace' : 'GET /activity',
      method: 'GET' as const,
      path: byWorkspace ? '/api/v1/activity?group_by=workspace' : '/api/v1/activity',
      direct: (db: Kysely<Schema>) => queryUsage(db, activityQuery(organizationId, { byWorkspace }, new Date())),
    })),
    analytics('usage+requests by day, 30 days', { metrics: ['total_usage', 'request_count'], granularity: 'day', time_range: days(30) }),
    analytics('usage+requests by model, 30 days', {
      metrics: ['total_usage', 'request_count'],
      dimensions: ['model'],
      time_range: days(30),
    }),
    analytics('usage by key by day, group_limit 5', {
      metrics: ['total_usage'],
      dimensions: ['api_key_id'],
      granularity: 'day',
      group_limit: 5,
      time_range: days(30),
    }),
    analytics('by hour, 7 days, 3 models in a workspace', {
      metrics: ['request_count', 'error_rate', 'avg_latency'],
      granularity: 'hour',
      time_range: days(7),
      filters: [
        { field: 'model', operator: 'in', value: models.slice(0, 3) },
        { field: 'workspace', operator: 'eq', value: workspace },
      ],
    }),
    get('/datasets/app-rankings'),
    get(`/datasets/app-rankings?sort=trending&start_date=${weekAgo}`),
    get('/datasets/rankings-daily'),
    get('/datasets/rankings-daily?period=week&modality=tool_calling'),
    get('/datasets/session-cost'),
    get('/datasets/session-cost?turn_range=2-9-turns'),
    get('/benchmarks'),
  ];
}

interface Timing {
  engine: string;
  query: string;
  rows: number;
  /** Wall time of the whole request, client to client, ms. */
  requestMs: { p50: number; p95: number };
  /** The query's own time: the server's metadata.query_time_ms (analytics), or the route's query run in this process (activity). */
  queryMs?: { p50: number; p95: number };
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(0.95 * values.length) - 1)]!;

async function time(origin: string, db: Kysely<Schema>, engine: string, query: Query): Promise<Timing> {
  const call = async () => {
    const started = performance.now();
    const response = await fetch(`${origin}${query.path}`, {
      method: query.method,
      headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, ...(query.body ? { 'content-type': 'application/json' } : {}) },
      ...(query.body ? { body: JSON.stringify(query.body) } : {}),
    });
    const body = (await response.json()) as { data: unknown[] | { data: unknown[]; metadata: { query_time_ms: number } } };
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${query.name}: ${response.status} ${JSON.stringify(body)}`);
    return Array.isArray(body.data)
      ? { ms, rows: body.data.length }
      : { ms, rows: body.data.data.length, serverMs: body.data.metadata.query_time_ms };
  };
  for (let i = 0; i < 3; i++) await call(); // warm-up: the JIT, the statement caches, the database's pages
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await call());
  const request = samples.map((s) => s.ms);
  const server = samples.flatMap((s) => (s.serverMs === undefined ? [] : [s.serverMs]));
  if (query.direct) {
    for (let i = 0; i < 3 + RUNS; i++) {
      const started = performance.now();
      await query.direct(db);
      if (i >= 3) server.push(performance.now() - started);
    }
  }
  return {
    engine,
    query: query.name,
    rows: samples[0]!.rows,
    requestMs: { p50: summarize(request).p50, p95: p95(request) },
    ...(server.length > 0 ? { queryMs: { p50: summarize(server).p50, p95: p95(server) } } : {}),
  };
}

/** `node dist/main.js serve` over the filled database, as production runs it. */
async function serve(processes: Processes, database: Database, dir: string): Promise<string> {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: database.url,
    GATEWAY_CONFIG: '',
    GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: MANAGEMENT_KEY,
    LEDGER_OUTBOX_DIR: join(dir, 'outbox'),
    LOG_LEVEL: 'warn',
  };
  const started = processes.start(`gateway (${database.engine})`, process.execPath, ['dist/main.js', 'serve'], {
    env,
    logPath: join(dir, `gateway-${database.engine}.log`),
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(started, `${origin}/ready`, {}, 60_000);
  } catch (error) {
    process.stderr.write(`${logTail(started)}\n`);
    throw error;
  }
  return origin;
}

async function measure(database: Database, dir: string): Promise<{ filled: Filled; timings: Timing[] }> {
  const now = new Date();
  const store = openStore(database.url);
  let filled: Filled;
  let setup: Awaited<ReturnType<typeof organization>>;
  try {
    await migrateToLatest(store);
    setup = await organization(store, now);
    process.stderr.write(
      `${database.engine}: writing ${ROWS.toLocaleString('en')} generations over ${SHAPE.days} days, ${BATCH} a commit\n`,
    );
    filled = await fill(store, setup.organizationId, setup.callers, now);
  } finally {
    await store.close();
  }
  const processes = new Processes();
  const reader = openStore(database.url);
  try {
    const origin = await serve(processes, database, dir);
    const timings: Timing[] = [];
    for (const query of queries(now, setup.organizationId, MODEL_IDS, setup.workspaces[1]!))
      timings.push(await time(origin, reader.db, database.engine, query));
    return { filled, timings };
  } finally {
    await reader.close();
    await processes.stopAll();
  }
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'bench-analytics-run-'));
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
try {
  for (const make of [async () => sqliteDatabase(), ...(POSTGRES_URL ? [() => postgresDatabase(POSTGRES_URL)] : [])]) {
    const database = await make();
    try {
      results[database.engine] = await measure(database, dir);
    } finally {
      await database.drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (!POSTGRES_URL) process.stderr.write('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL)\n');

const ms = (value: number) => value.toFixed(1);
const lines = [['engine', 'query', 'rows', 'request p50 ms', 'request p95 ms', 'query p50 ms', 'query p95 ms']];
for (const result of Object.values(results)) {
  for (const t of result.timings) {
    lines.push([
      t.engine,
      t.query,
      String(t.rows),
      ms(t.requestMs.p50),
      ms(t.requestMs.p95),
      t.queryMs ? ms(t.queryMs.p50) : '',
      t.queryMs ? ms(t.queryMs.p95) : '',
    ]);
  }
}
const fills = Object.entries(results).map(
  ([engine, r]) =>
    `  ${engine}: ${ROWS.toLocaleString('en')} generations written in ${r.filled.seconds.toFixed(0)} s (${Math.round(ROWS / r.filled.seconds).toLocaleString('en')} rows/s), ${r.filled.rollupRows.toLocaleString('en')} rows of usage_hourly; ${r.filled.foldedDays} days folded, the longest in ${r.filled.longestFoldMs.toFixed(0)} ms; session costs folded in ${r.filled.sessionFoldMs.toFixed(0)} ms`,
);
process.stdout.write(
  `\nAnalytics over ${ROWS.toLocaleString('en')} generations in ${SHAPE.days} days, ${RUNS} runs a query: the whole request, and the query (analytics: the server's query_time_ms; activity: its query run here)\n${fills.join('\n')}\n\n${table(lines)}\n`,
);
const path = writeResults(runStamp('-analytics'), {
  date: new Date().toISOString(),
  node: process.version,
  rows: ROWS,
  runs: RUNS,
  shape: SHAPE,
  results,
});
process.stdout.write(`\nresults: ${path}\n`);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerWrites } from '../../src/accounting/ledger-writes.js';
import { recordGenerations, type WriteGenerations } from '../../src/accounting/record-generation.js';
import type { Store } from '../../src/store/database.js';
import type { GenerationRecord } from '../../src/store/schema.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';

let seq = 0;
const generation = (hash: string, cost: number, over: Partial<GenerationRecord> = {}): GenerationRecord => ({
  id: `gen-test-${++seq}`,
  organization_id: 'org',
  workspace_id: 'ws',
  api_key_hash: hash,
  model: 'acme/fast-1',
  api_type: 'completions',
  status: 'success',
  streamed: 0,
  cancelled: 0,
  total_cost: cost,
  created_at: new Date().toISOString(),
  ...over,
});

// Both ways a batch is committed: through Kysely (video jobs, interns) and the gateway's ledger writes (synchronous on SQLite).
const writers: { name: string; writes: (store: Store) => WriteGenerations }[] = [
  { name: 'Kysely', writes: (store) => (rows, now) => recordGenerations(store.db, rows, now) },
  { name: 'the ledger writes', writes: ledgerWrites },
];
const cases = testEngines.flatMap((engine) =>
  writers.map((writer) => ({ ...writer, engine, label: `${engine.name}, through ${writer.name}` })),
);

describe.each(cases)('ledger and spend counters on $label', ({ engine, writes }) => {
  const time = testClock('2026-11-22T23:59:00.000Z'); // a Sunday, one minute before a new week
  let gw: RunningGateway;
  let recordGeneration: (row: GenerationRecord, now: Date) => Promise<void>;

  beforeAll(async () => {
    gw = await startGateway(engine, { clock: time.clock });
    const write = writes(gw.store);
    recordGeneration = (row, now) => write([row], now);
  });
  afterAll(async () => {
    await gw.close();
  });

  const newKey = async (body: Record<string, unknown>) =>
    (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'spender', ...body } })).body;
  const record = async (key: { hash: string }) => (await call(gw, 'GET', `/keys/${key.hash}`, { key: gw.managementKey })).body.data;

  it('adds each cost to usage and to the day, week and month', async () => {
    const { data } = await newKey({ limit: 1, limit_reset: 'daily' });
    await recordGeneration(generation(data.hash, 0.25), time.clock());
    await recordGeneration(generation(data.hash, 0.5), time.clock());
    expect(await record(data)).toMatchObject({
      usage: 0.75,
      usage_daily: 0.75,
      usage_weekly: 0.75,
      usage_monthly: 0.75,
      limit_remaining: 0.25,
    });
  });

  it('restarts the day and the week at midnight UTC, keeping the month and the total', async () => {
    const { data } = await newKey({ limit: 1, limit_reset: 'weekly' });
    await recordGeneration(generation(data.hash, 0.4), time.clock());
    time.set('2026-11-23T00:00:01.000Z'); // Monday
    expect(await record(data)).toMatchObject({ usage: 0.4, usage_daily: 0, usage_weekly: 0, usage_monthly: 0.4, limit_remaining: 1 });
    await recordGeneration(generation(data.hash, 0.1), time.clock());
    expect(await record(data)).toMatchObject({ usage: 0.5, usage_daily: 0.1, usage_weekly: 0.1, usage_monthly: 0.5, limit_remaining: 0.9 });
    time.set('2026-11-29T23:59:59.000Z'); // Sunday: still the week of the 23rd
    expect(await record(data)).toMatchObject({ usage_weekly: 0.1, usage_daily: 0, usage_monthly: 0.5 });
    time.set('2026-12-01T00:00:00.000Z'); // Tuesday of the week of Monday 30 November, and a new month
    expect(await record(data)).toMatchObject({ usage: 0.5, usage_monthly: 0, usage_weekly: 0 });
  });

  it('loses no increment under concurrent charges', async () => {
    const { data } = await newKey({});
    await Promise.all(Array.from({ length: 40 }, () => recordGeneration(generation(data.hash, 0.01), time.clock())));
    const after = await record(data);
    expect(after.usage).toBeCloseTo(0.4, 10);
    expect(after.usage_daily).toBeCloseTo(0.4, 10);
    const rows = await gw.store.db.selectFrom('generations').select('id').where('api_key_hash', '=', data.hash).execute();
    expect(rows).toHaveLength(40);
  });

  it('keeps the ledger rows of a deleted key', async () => {
    const { data } = await newKey({});
    await recordGeneration(generation(data.hash, 0.2), time.clock());
    await call(gw, 'DELETE', `/keys/${data.hash}`, { key: gw.managementKey });
    const rows = await gw.store.db.selectFrom('generations').selectAll().where('api_key_hash', '=', data.hash).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.total_cost).toBe(0.2);
  });
});

import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import type { LatencyBucketColumn } from '../latency-sketch.js';
import { foldedBefore } from '../repositories/usage-daily.js';
import type { UsageHourlyTable } from '../schema.js';
import { migrationProvider } from './index.js';

/** A row as usage_hourly was before migration 0036 gave it errors by status class (and 0044 latency sketches). */
type HourBefore0036 = Omit<UsageHourlyTable, 'errors_4xx' | 'errors_5xx' | LatencyBucketColumn>;
const hour = (at: string, fields: Partial<HourBefore0036> = {}): HourBefore0036 => ({
  organization_id: 'o1',
  hour: at,
  workspace_id: 'w1',
  api_key_hash: 'k1',
  model: 'm1',
  provider_name: 'p1',
  requests: 1,
  errors: 0,
  tokens_prompt: 10,
  tokens_completion: 5,
  tokens_reasoning: 1,
  tokens_cached: 2,
  cost: 0.25,
  latency_ms_sum: 100,
  latency_count: 1,
  ...fields,
});

describe.each(testEngines)('migration 0028-usage-daily on $name', (engine) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await engine.create();
    store = openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('sums the hourly rollups written before it by day', async () => {
    const schema =
      engine.name === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]!.s : undefined;
    const migrator = new Migrator({
      db: store.db,
      provider: migrationProvider(engine.name),
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateTo('0024-generation-feedback');
    expect(error).toBeUndefined();
    await (store.db as unknown as Kysely<{ usage_hourly: HourBefore0036 }>)
      .insertInto('usage_hourly')
      .values([
        hour('2026-11-20T00', { errors: 1 }),
        hour('2026-11-20T23', { latency_ms_sum: 0, latency_count: 0 }),
        hour('2026-11-21T00'),
        hour('2026-11-20T10', { provider_name: '' }),
        hour('2026-11-20T10', { organization_id: 'o2', cost: 1 }),
      ])
      .execute();
    // To 0031 (the folds), not further: 0036 adds the error classes this test's rows predate.
    const migrated = await migrator.migrateTo('0031-usage-daily-folds');
    expect(migrated.results?.map((r) => r.migrationName)).toContain('0028-usage-daily');

    const daily = await store.db
      .selectFrom('usage_daily')
      .selectAll()
      .orderBy('organization_id')
      .orderBy('day')
      .orderBy('provider_name')
      .execute();
    expect(daily).toEqual([
      {
        organization_id: 'o1',
        day: '2026-11-20',
        workspace_id: 'w1',
        api_key_hash: 'k1',
        model: 'm1',
        provider_name: '',
        requests: 1,
        errors: 0,
        tokens_prompt: 10,
        tokens_completion: 5,
        tokens_reasoning: 1,
        tokens_cached: 2,
        cost: 0.25,
        latency_ms_sum: 100,
        latency_count: 1,
      },
      {
        organization_id: 'o1',
        day: '2026-11-20',
        workspace_id: 'w1',
        api_key_hash: 'k1',
        model: 'm1',
        provider_name: 'p1',
        requests: 2,
        errors: 1,
        tokens_prompt: 20,
        tokens_completion: 10,
        tokens_reasoning: 2,
        tokens_cached: 4,
        cost: 0.5,
        latency_ms_sum: 100,
        latency_count: 1,
      },
      expect.objectContaining({ organization_id: 'o1', day: '2026-11-21', requests: 1 }),
      expect.objectContaining({ organization_id: 'o2', day: '2026-11-20', requests: 1, cost: 1 }),
    ]);
    // Migration 0031: the days before the newest one were kept whole, so they count as folded; the newest is folded again.
    expect(await foldedBefore(store.db)).toBe('2026-11-21');
  });
});

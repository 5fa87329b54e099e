import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import { bucketColumn } from '../latency-sketch.js';
import { migrateTo, migrateToLatest } from '../migrate.js';

describe.each(testEngines)('migration 0044-usage-latency-sketch on $name', (engine) => {
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

  it('counts the latencies and first-token times of the ledger written before it in the sketches of their hours and days', async () => {
    await migrateTo(store, '0041-dataset-rollups');
    const generation = (id: string, hour: string, latency: number | null, ttft: number | null) =>
      sql`insert into generations (id, organization_id, workspace_id, api_key_hash, model, provider_name, api_type, status, streamed,
        cancelled, latency_ms, ttft_ms, created_at) values (${id}, 'o1', 'w1', 'k1', 'm1', 'p1', 'completions', 'success', 0, 0,
        ${latency}, ${ttft}, ${`${hour}:10:00.000Z`})`.execute(store.db);
    await generation('g1', '2026-11-20T10', 3, 2);
    await generation('g2', '2026-11-20T10', 250, 40);
    await generation('g3', '2026-11-20T11', 250, null);
    await generation('g4', '2026-11-20T11', null, null);
    const rollup = (table: 'usage_hourly' | 'usage_daily', at: string, requests: number) =>
      sql`insert into ${sql.table(table)} (organization_id, ${sql.ref(table === 'usage_hourly' ? 'hour' : 'day')}, workspace_id,
        api_key_hash, model, provider_name, requests, errors, tokens_prompt, tokens_completion, tokens_reasoning, tokens_cached, cost,
        latency_ms_sum, latency_count) values ('o1', ${at}, 'w1', 'k1', 'm1', 'p1', ${requests}, 0, 0, 0, 0, 0, 0, 0, 0)`.execute(store.db);
    await rollup('usage_hourly', '2026-11-20T10', 2);
    await rollup('usage_hourly', '2026-11-20T11', 2);
    await rollup('usage_daily', '2026-11-20', 4);
    expect(await migrateToLatest(store)).toContain('0044-usage-latency-sketch');

    const counted = [bucketColumn('latency', 3), bucketColumn('latency', 250), bucketColumn('ttft', 2), bucketColumn('ttft', 40)] as const;
    const sketches = async (table: 'usage_hourly' | 'usage_daily') =>
      (
        await store.db
          .selectFrom(table)
          .selectAll()
          .orderBy(sql.ref(table === 'usage_hourly' ? 'hour' : 'day'))
          .execute()
      ).map((row) => {
        const nonZero = Object.entries(row).filter(([column, n]) => /_b\d\d$/.test(column) && Number(n) !== 0);
        return Object.fromEntries(nonZero.map(([column, n]) => [column, Number(n)]));
      });
    expect(counted).toEqual(['latency_b00', 'latency_b10', 'ttft_b00', 'ttft_b05']);
    expect(await sketches('usage_hourly')).toEqual([{ latency_b00: 1, latency_b10: 1, ttft_b00: 1, ttft_b05: 1 }, { latency_b10: 1 }]);
    expect(await sketches('usage_daily')).toEqual([{ latency_b00: 1, latency_b10: 2, ttft_b00: 1, ttft_b05: 1 }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../test/support/databases.js';
import { openStore, type Store } from '../store/database.js';
import { bucketOf, bucketValue, LATENCY_BUCKETS, LATENCY_COLUMNS, quantileOf } from '../store/latency-sketch.js';
import { migrateToLatest } from '../store/migrate.js';
import { queryUsage, type UsageMeasure } from '../store/repositories/usage-hourly.js';
import type { GenerationRecord } from '../store/schema.js';
import { generationRow } from './generation-row.testing.js';
import { ledgerWrites, ledgerWritesOnce } from './ledger-writes.js';
import { recordGenerations } from './record-generation.js';
import { foldUsageDays } from './usage-day-folds.js';

const now = new Date('2026-11-23T12:30:00.000Z');
describe.each(testEngines)('the usage rollups on $name', (engine) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await engine.create();
    store = openStore(database.url);
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });
  // The sums but the latency sketches' buckets (their own test below).
  const withoutSketches = <T extends object>(rows: T[]) =>
    rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !LATENCY_COLUMNS.includes(column as never))));
  const hours = async (organizationId: string) =>
    withoutSketches(
      await store.db
        .selectFrom('usage_hourly')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('hour')
        .orderBy('api_key_hash')
        .orderBy('provider_name')
        .execute(),
    );
  const days = async (organizationId: string) =>
    withoutSketches(
      await store.db
        .selectFrom('usage_daily')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('day')
        .orderBy('api_key_hash')
        .orderBy('provider_name')
        .execute(),
    );
  const spent = async (organizationId: string) =>
    (await store.db.selectFrom('organization_usage').select('usage').where('organization_id', '=', organizationId).executeTakeFirst())
      ?.usage;

  it('add each ledger row to its hour, key, model and provider, and its cost to the organization, in the batch that writes it', async () => {
    const org = 'org-a';
    await recordGenerations(
      store.db,
      [generationRow({ organization_id: org }), generationRow({ organization_id: org, status: 'error', total_cost: 0, latency_ms: null })],
      now,
    );
    await recordGenerations(
      store.db,
      [
        generationRow({ organization_id: org, total_cost: 0.25, latency_ms: 100 }),
        generationRow({ organization_id: org, created_at: '2026-11-23T13:00:00.000Z' }),
        generationRow({ organization_id: org, api_key_hash: 'other' }),
        generationRow({ organization_id: org, provider_name: null, total_cost: 0 }),
      ],
      now,
    );
    expect(await hours(org)).toEqual([
      {
        organization_id: org,
        hour: '2026-11-23T12',
        workspace_id: 'ws',
        api_key_hash: 'key',
        model: 'acme/fast',
        provider_name: '',
        requests: 1,
        errors: 0,
        errors_4xx: 0,
        errors_5xx: 0,
        tokens_prompt: 10,
        tokens_completion: 4,
        tokens_reasoning: 1,
        tokens_cached: 2,
        cost: 0,
        latency_ms_sum: 200,
        latency_count: 1,
      },
      {
        organization_id: org,
        hour: '2026-11-23T12',
        workspace_id: 'ws',
        api_key_hash: 'key',
        model: 'acme/fast',
        provider_name: 'acme',
        requests: 3,
        errors: 1,
        errors_4xx: 0,
        errors_5xx: 1,
        tokens_prompt: 30,
        tokens_completion: 12,
        tokens_reasoning: 3,
        tokens_cached: 6,
        cost: 0.75,
        latency_ms_sum: 300,
        latency_count: 2,
      },
      expect.objectContaining({ hour: '2026-11-23T12', api_key_hash: 'other', requests: 1, cost: 0.5 }),
      expect.objectContaining({ hour: '2026-11-23T13', api_key_hash: 'key', requests: 1, cost: 0.5 }),
    ]);
    // Rows of the current day are not added to usage_daily by their commit: the day is folded from its hours once over.
    expect(await days(org)).toEqual([]);
    await foldUsageDays(store, new Date('2026-11-24T01:30:00.000Z'));
    // The same sums by day: the two hours of key's rows at acme in one row.
    expect(await days(org)).toEqual([
      {
        organization_id: org,
        day: '2026-11-23',
        workspace_id: 'ws',
        api_key_hash: 'key',
        model: 'acme/fast',
        provider_name: '',
        requests: 1,
        errors: 0,
        errors_4xx: 0,
        errors_5xx: 0,
        tokens_prompt: 10,
        tokens_completion: 4,
        tokens_reasoning: 1,
        tokens_cached: 2,
        cost: 0,
        latency_ms_sum: 200,
        latency_count: 1,
      },
      {
        organization_id: org,
        day: '2026-11-23',
        workspace_id: 'ws',
        api_key_hash: 'key',
        model: 'acme/fast',
        provider_name: 'acme',
        requests: 4,
        errors: 1,
        errors_4xx: 0,
        errors_5xx: 1,
        tokens_prompt: 40,
        tokens_completion: 16,
        tokens_reasoning: 4,
        tokens_cached: 8,
        cost: 1.25,
        latency_ms_sum: 500,
        latency_count: 3,
      },
      expect.objectContaining({ day: '2026-11-23', api_key_hash: 'other', requests: 1, cost: 0.5 }),
    ]);
    expect(await spent(org)).toBe(1.75);
  });

  it("are written by the ledger's own path (SQLite's synchronous transaction) too", async () => {
    const org = 'org-b';
    await ledgerWrites(store)([generationRow({ organization_id: org }), generationRow({ organization_id: org })], now);
    expect(await hours(org)).toEqual([expect.objectContaining({ requests: 2, cost: 1 })]);
    expect(await days(org)).toEqual([]);
    expect(await spent(org)).toBe(1);
  });

  it('count a row written back from the outbox once, even when it was in the database already', async () => {
    const org = 'org-c';
    const first = generationRow({ organization_id: org });
    await recordGenerations(store.db, [first], now);
    await ledgerWritesOnce(store.db)([first, generationRow({ organization_id: org, total_cost: 0.125 })], now);
    expect(await hours(org)).toEqual([expect.objectContaining({ requests: 2, cost: 0.625 })]);
    expect(await days(org)).toEqual([]);
    expect(await spent(org)).toBe(0.625);
  });

  it("add a row of an earlier day than the commit's to its day too, folded or not, on either write path", async () => {
    const org = 'org-late';
    const afterMidnight = new Date('2026-11-24T00:20:00.000Z');
    const late = (fields: Partial<GenerationRecord> = {}) =>
      generationRow({ organization_id: org, created_at: '2026-11-23T23:50:00.000Z', ...fields });
    await recordGenerations(
      store.db,
      [late(), generationRow({ organization_id: org, created_at: '2026-11-24T00:10:00.000Z' })],
      afterMidnight,
    );
    await ledgerWrites(store)([late({ total_cost: 0.25 })], afterMidnight);
    await ledgerWritesOnce(store.db)([late({ total_cost: 0.125 })], afterMidnight);
    expect(await days(org)).toEqual([expect.objectContaining({ day: '2026-11-23', requests: 3, cost: 0.875 })]);
    expect(await hours(org)).toEqual([
      expect.objectContaining({ hour: '2026-11-23T23', requests: 3, cost: 0.875 }),
      expect.objectContaining({ hour: '2026-11-24T00', requests: 1, cost: 0.5 }),
    ]);
  });

  it('leave an organization that spent nothing out of organization_usage', async () => {
    await recordGenerations(store.db, [generationRow({ organization_id: 'org-d', total_cost: 0, status: 'error' })], now);
    expect(await spent('org-d')).toBeUndefined();
    expect(await hours('org-d')).toEqual([expect.objectContaining({ requests: 1, errors: 1 })]);
  });

  it('counts errors by status class: a 4xx refusal apart from the rest (a 5xx, a failure without a status)', async () => {
    const failed = (error_code: number | null) =>
      generationRow({ organization_id: 'org-e', status: 'error', total_cost: 0, provider_name: null, error_code });
    await recordGenerations(
      store.db,
      [failed(404), failed(429), failed(502), failed(null), generationRow({ organization_id: 'org-e', provider_name: null })],
      now,
    );
    expect(await hours('org-e')).toEqual([expect.objectContaining({ requests: 5, errors: 4, errors_4xx: 2, errors_5xx: 2 })]);
  });

  it("keep latency sketches whose hours add up: a range's quantiles read from the folded days and the hours alike as from its rows", async () => {
    const org = 'org-f';
    const timed = (created_at: string, latency_ms: number | null, ttft_ms: number | null) =>
      generationRow({ organization_id: org, created_at, latency_ms, ttft_ms });
    const first = [timed('2026-11-25T09:00:00.000Z', 40, 12), timed('2026-11-25T23:00:00.000Z', 900, 300)];
    const second = [
      timed('2026-11-26T10:00:00.000Z', 3_000, 700),
      timed('2026-11-26T10:30:00.000Z', 120, null),
      timed('2026-11-26T11:00:00.000Z', 5, 2),
      timed('2026-11-26T11:30:00.000Z', null, null),
    ];
    await recordGenerations(store.db, first, new Date('2026-11-25T23:30:00.000Z'));
    await foldUsageDays(store, new Date('2026-11-26T01:30:00.000Z'));
    await recordGenerations(store.db, second, new Date('2026-11-26T12:30:00.000Z'));
    const rows = [...first, ...second];
    const sketch = (of: (row: GenerationRecord) => number | null | undefined) => {
      const counts = Array<number>(LATENCY_BUCKETS).fill(0);
      for (const row of rows) {
        const ms = of(row);
        if (ms != null) counts[bucketOf(ms)]! += 1;
      }
      return counts;
    };
    const latency = sketch((row) => row.latency_ms);
    const ttft = sketch((row) => row.ttft_ms);
    const measures = new Map<string, UsageMeasure>([
      ['latency_p50', { quantile: ['latency', 0.5] }],
      ['latency_p95', { quantile: ['latency', 0.95] }],
      ['ttft_p50', { quantile: ['ttft', 0.5] }],
      ['ttft_p95', { quantile: ['ttft', 0.95] }],
    ]);
    const expected = {
      latency_p50: quantileOf(latency, 0.5),
      latency_p95: quantileOf(latency, 0.95),
      ttft_p50: quantileOf(ttft, 0.5),
      ttft_p95: quantileOf(ttft, 0.95),
    };
    // The times by rank: latency 5, 40, 120, 900, 3000 ms; first token 2, 12, 300, 700 ms (each read as its bucket's middle).
    const read = (ms: number) => bucketValue(bucketOf(ms));
    expect(expected).toEqual({ latency_p50: read(120), latency_p95: read(3_000), ttft_p50: read(12), ttft_p95: read(700) });
    const query = { organizationId: org, groupBy: [], filters: [], measures, order: [], limit: 10 };
    // From 00:00, the 25th is read from usage_daily (folded), the 26th from its hours; from 01:00, all from usage_hourly.
    for (const from of ['2026-11-25T00', '2026-11-25T01'])
      expect((await queryUsage(store.db, { ...query, from, to: '2026-11-27T00', bucket: null })).rows).toEqual([expected]);
    // Per day, each from its own rows; a range without a time counts none.
    const byDay = await queryUsage(store.db, { ...query, from: '2026-11-25T00', to: '2026-11-27T00', bucket: 'day' });
    expect(byDay.rows.map((row) => [row.bucket, row.latency_p50, row.ttft_p95])).toEqual([
      ['2026-11-25', read(40), read(300)],
      ['2026-11-26', read(120), read(700)],
    ]);
    const none = await queryUsage(store.db, { ...query, from: '2026-11-20T00', to: '2026-11-21T00', bucket: null });
    expect(none.rows).toEqual([{ latency_p50: null, latency_p95: null, ttft_p50: null, ttft_p95: null }]);
  });
});

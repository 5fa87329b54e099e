import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';
import { emptySketches } from '../latency-sketch.js';
import type { Database, UsageDailyTable, UsageHourlyTable } from '../schema.js';
import { queryUsage, type UsageQuery, wholeDays } from './usage-hourly.js';

const hour = (at: string, model: string, requests: number, extra: Partial<UsageHourlyTable> = {}): UsageHourlyTable => ({
  organization_id: 'org',
  hour: at,
  workspace_id: 'ws',
  api_key_hash: 'key',
  model,
  provider_name: 'p',
  requests,
  errors: 0,
  errors_4xx: 0,
  errors_5xx: 0,
  tokens_prompt: 0,
  tokens_completion: 0,
  tokens_reasoning: 0,
  tokens_cached: 0,
  cost: 0,
  latency_ms_sum: 0,
  latency_count: 0,
  ...emptySketches(),
  ...extra,
});

const SUMS = [
  'requests',
  'errors',
  'tokens_prompt',
  'tokens_completion',
  'tokens_reasoning',
  'tokens_cached',
  'cost',
  'latency_ms_sum',
  'latency_count',
] as const;

/** Rows of usage_hourly, and their sums by day in usage_daily with every day to 2026-11-02 folded, as the folds keep them (accounting/usage-day-folds.ts). */
async function addUsage(db: Kysely<Database>, rows: UsageHourlyTable[]): Promise<void> {
  await db.updateTable('usage_daily_folds').set({ folded_before: '2026-11-03' }).execute();
  await db.insertInto('usage_hourly').values(rows).execute();
  const days = new Map<string, UsageDailyTable>();
  for (const { hour, ...row } of rows) {
    const day = { ...row, day: hour.slice(0, 10) };
    const id = JSON.stringify([day.organization_id, day.day, day.workspace_id, day.api_key_hash, day.model, day.provider_name]);
    const sums = days.get(id);
    if (sums) for (const name of SUMS) sums[name] += day[name];
    else days.set(id, day);
  }
  await db
    .insertInto('usage_daily')
    .values([...days.values()])
    .execute();
}

describe('wholeDays', () => {
  it('names the UTC days that lie whole inside a range of hours, or none', () => {
    expect(wholeDays('2026-11-01T00', '2026-11-03T00')).toEqual({ first: '2026-11-01', end: '2026-11-03' });
    expect(wholeDays('2026-10-31T23', '2026-11-03T05')).toEqual({ first: '2026-11-01', end: '2026-11-03' });
    expect(wholeDays('2026-12-31T01', '2027-01-02T00')).toEqual({ first: '2027-01-01', end: '2027-01-02' });
    expect(wholeDays('2026-11-01T01', '2026-11-02T00')).toBeUndefined();
    expect(wholeDays('2026-11-01T00', '2026-11-01T23')).toBeUndefined();
  });
});

describe.each(testEngines)('queryUsage on $name', (engine) => {
  const store = migratedStore(engine);
  const base: Omit<UsageQuery, 'measures' | 'order' | 'groupBy' | 'bucket'> = {
    organizationId: 'org',
    from: '2026-11-01T00',
    to: '2026-11-03T00',
    filters: [],
    limit: 100,
  };

  it('buckets by day, keeps at most group_limit rows per group in order, and returns numbers (null for a ratio over nothing)', async () => {
    await addUsage(store.db, [
      hour('2026-11-01T01', 'a', 1, { errors: 1, tokens_prompt: 3_000_000_000 }),
      hour('2026-11-01T02', 'a', 3, { tokens_prompt: 3_000_000_000 }),
      hour('2026-11-02T05', 'a', 2),
      hour('2026-11-01T03', 'b', 5, { latency_ms_sum: 500, latency_count: 5 }),
      hour('2026-11-02T03', 'b', 1),
      hour('2026-11-03T00', 'b', 9),
      { ...hour('2026-11-01T01', 'a', 7), organization_id: 'other' },
    ]);
    const { rows, truncated } = await queryUsage(store.db, {
      ...base,
      bucket: 'day',
      groupBy: ['model'],
      measures: new Map([
        ['requests', { sum: ['requests'] }],
        ['prompt', { sum: ['tokens_prompt'] }],
        ['error_rate', { ratio: ['errors', 'requests'] }],
        ['latency', { ratio: ['latency_ms_sum', 'latency_count'] }],
      ]),
      order: [{ by: { measure: 'requests' }, descending: true }],
      groupLimit: 1,
    });
    expect(truncated).toBe(false);
    expect(rows).toEqual([
      { bucket: '2026-11-01', model: 'b', requests: 5, prompt: 0, error_rate: 0, latency: 100 },
      { bucket: '2026-11-01', model: 'a', requests: 4, prompt: 6_000_000_000, error_rate: 0.25, latency: null },
    ]);
  });

  it('filters in and out, and says when rows were left past the limit', async () => {
    const query = (fields: Partial<UsageQuery>) =>
      queryUsage(store.db, {
        ...base,
        bucket: null,
        groupBy: ['model'],
        measures: new Map([['requests', { sum: ['requests'] }]]),
        order: [{ by: 'model', descending: false }],
        ...fields,
      });
    expect((await query({ filters: [{ column: 'model', values: ['a'], exclude: true }] })).rows).toEqual([{ model: 'b', requests: 6 }]);
    expect((await query({ filters: [{ column: 'model', values: [], exclude: false }] })).rows).toEqual([]);
    expect(await query({ limit: 1 })).toEqual({ rows: [{ model: 'a', requests: 6 }], truncated: true });
  });

  it("reads whole days from the daily sums and the hours at a range's ends from the hourly ones, by day, by hour or not bucketed", async () => {
    const org = 'org-edges';
    await addUsage(store.db, [
      { ...hour('2026-10-31T22', 'a', 1), organization_id: org },
      { ...hour('2026-10-31T23', 'a', 2), organization_id: org },
      { ...hour('2026-11-01T00', 'a', 4), organization_id: org },
      { ...hour('2026-11-01T23', 'b', 8), organization_id: org },
      { ...hour('2026-11-02T04', 'a', 16), organization_id: org },
      { ...hour('2026-11-02T05', 'b', 32), organization_id: org },
    ]);
    const query = (bucket: UsageQuery['bucket'], from: string, to: string) =>
      queryUsage(store.db, {
        organizationId: org,
        from,
        to,
        bucket,
        filters: [],
        limit: 100,
        groupBy: ['model'],
        measures: new Map([['requests', { sum: ['requests'] }]]),
        order: [...(bucket ? [{ by: 'bucket' as const, descending: false }] : []), { by: 'model', descending: false }],
      });
    // 2026-11-01 whole (daily), 2026-10-31T23 and 2026-11-02T04 from the hours; 22:00 and 05:00 outside.
    expect((await query('day', '2026-10-31T23', '2026-11-02T05')).rows).toEqual([
      { bucket: '2026-10-31', model: 'a', requests: 2 },
      { bucket: '2026-11-01', model: 'a', requests: 4 },
      { bucket: '2026-11-01', model: 'b', requests: 8 },
      { bucket: '2026-11-02', model: 'a', requests: 16 },
    ]);
    expect((await query(null, '2026-10-31T23', '2026-11-02T05')).rows).toEqual([
      { model: 'a', requests: 22 },
      { model: 'b', requests: 8 },
    ]);
    expect((await query('hour', '2026-10-31T23', '2026-11-01T01')).rows).toEqual([
      { bucket: '2026-10-31T23', model: 'a', requests: 2 },
      { bucket: '2026-11-01T00', model: 'a', requests: 4 },
    ]);
    // No whole day: the hours alone.
    expect((await query(null, '2026-11-01T01', '2026-11-02T05')).rows).toEqual([
      { model: 'a', requests: 16 },
      { model: 'b', requests: 8 },
    ]);
  });

  it('takes the days folded from usage_daily and the days after them from usage_hourly', async () => {
    const org = 'org-folds';
    const row = (at: string, requests: number) => ({ ...hour(at, 'a', requests), organization_id: org });
    await store.db
      .insertInto('usage_hourly')
      .values([row('2026-11-10T05', 1), row('2026-11-11T05', 2), row('2026-11-12T05', 4)])
      .execute();
    // Day sums unlike the hours', to tell which table answered.
    const { hour: _, ...day } = row('2026-11-10T05', 100);
    await store.db
      .insertInto('usage_daily')
      .values([
        { ...day, day: '2026-11-10' },
        { ...day, day: '2026-11-11', requests: 200 },
      ])
      .execute();
    const query = () =>
      queryUsage(store.db, {
        organizationId: org,
        from: '2026-11-10T00',
        to: '2026-11-13T00',
        bucket: 'day',
        filters: [],
        limit: 100,
        groupBy: [],
        measures: new Map([['requests', { sum: ['requests'] }]]),
        order: [{ by: 'bucket', descending: false }],
      });
    await store.db.updateTable('usage_daily_folds').set({ folded_before: '2026-11-11' }).execute();
    expect((await query()).rows.map((r) => r.requests)).toEqual([100, 2, 4]);
    await store.db.updateTable('usage_daily_folds').set({ folded_before: null }).execute();
    expect((await query()).rows.map((r) => r.requests)).toEqual([1, 2, 4]);
  });
});

import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';
import type { UsageHourlyTable } from '../schema.js';
import { queryUsage, type UsageQuery } from './usage-hourly.js';

const hour = (at: string, model: string, requests: number, extra: Partial<UsageHourlyTable> = {}): UsageHourlyTable => ({
  organization_id: 'org', hour: at, workspace_id: 'ws', api_key_hash: 'key', model, provider_name: 'p', requests, errors: 0,
  tokens_prompt: 0, tokens_completion: 0, tokens_reasoning: 0, tokens_cached: 0, cost: 0, latency_ms_sum: 0, latency_count: 0, ...extra,
});

describe.each(testEngines)('queryUsage on $name', (engine) => {
  const store = migratedStore(engine);
  const base: Omit<UsageQuery, 'measures' | 'order' | 'groupBy' | 'bucket'> = { organizationId: 'org', from: '2026-11-01T00', to: '2026-11-03T00', filters: [], limit: 100 };

  it('buckets by day, keeps at most group_limit rows per group in order, and returns numbers (null for a ratio over nothing)', async () => {
    await store.db
      .insertInto('usage_hourly')
      .values([
        hour('2026-11-01T01', 'a', 1, { errors: 1, tokens_prompt: 3_000_000_000 }),
        hour('2026-11-01T02', 'a', 3, { tokens_prompt: 3_000_000_000 }),
        hour('2026-11-02T05', 'a', 2),
        hour('2026-11-01T03', 'b', 5, { latency_ms_sum: 500, latency_count: 5 }),
        hour('2026-11-02T03', 'b', 1),
        hour('2026-11-03T00', 'b', 9),
        { ...hour('2026-11-01T01', 'a', 7), organization_id: 'other' },
      ])
      .execute();
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
      queryUsage(store.db, { ...base, bucket: null, groupBy: ['model'], measures: new Map([['requests', { sum: ['requests'] }]]), order: [{ by: 'model', descending: false }], ...fields });
    expect((await query({ filters: [{ column: 'model', values: ['a'], exclude: true }] })).rows).toEqual([{ model: 'b', requests: 6 }]);
    expect((await query({ filters: [{ column: 'model', values: [], exclude: false }] })).rows).toEqual([]);
    expect(await query({ limit: 1 })).toEqual({ rows: [{ model: 'a', requests: 6 }], truncated: true });
  });
});

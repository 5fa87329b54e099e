import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../test/support/databases.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { foldedBefore } from '../store/repositories/usage-daily.js';
import type { GenerationRecord } from '../store/schema.js';
import { generationRow } from './generation-row.testing.js';
import { recordGenerations } from './record-generation.js';
import { foldUsageDays } from './usage-day-folds.js';

const row = (created_at: string, fields: Partial<GenerationRecord> = {}) => generationRow({ created_at, ...fields });

describe.each(testEngines)('folding usage days on $name', (engine) => {
  let database: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    database = await engine.create();
    store = openStore(database.url);
    await migrateToLatest(store);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  /** usage_daily's rows, and usage_hourly's summed by day, of the days before `end`, as comparable lists. */
  const bothByDay = async (end: string) => {
    const key = 'organization_id, workspace_id, api_key_hash, model, provider_name';
    const daily = await sql<Record<string, unknown>>`
      select organization_id, day, model, provider_name, api_key_hash, requests, errors, tokens_prompt, cost, latency_ms_sum, latency_count
      from usage_daily where day < ${end} order by day, ${sql.raw(key)}`.execute(store.db);
    const hourly = await sql<Record<string, unknown>>`
      select organization_id, substr(hour, 1, 10) as day, model, provider_name, api_key_hash, sum(requests) as requests,
        sum(errors) as errors, sum(tokens_prompt) as tokens_prompt, sum(cost) as cost, sum(latency_ms_sum) as latency_ms_sum,
        sum(latency_count) as latency_count
      from usage_hourly where hour < ${`${end}T00`} group by substr(hour, 1, 10), ${sql.raw(key)} order by day, ${sql.raw(key)}`.execute(
      store.db,
    );
    const numbers = (rows: Record<string, unknown>[]) =>
      rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^[\d.]+$/.test(v) ? Number(v) : v])),
      );
    return { daily: numbers(daily.rows), hourly: numbers(hourly.rows) };
  };

  it('folds a day from its hours only once it ended an hour ago, then each later day in turn', async () => {
    await recordGenerations(
      store.db,
      [row('2026-11-20T10:00:00.000Z'), row('2026-11-20T23:59:00.000Z', { status: 'error', total_cost: 0 })],
      new Date('2026-11-20T23:59:30.000Z'),
    );
    await recordGenerations(
      store.db,
      [row('2026-11-21T00:30:00.000Z', { organization_id: 'other' })],
      new Date('2026-11-21T00:30:10.000Z'),
    );
    // Before any fold the first is the first hour's day; nothing is folded within the hour after a day ends.
    expect(await foldUsageDays(store, new Date('2026-11-21T00:59:00.000Z'))).toEqual([]);
    expect(await foldedBefore(store.db)).toBeNull();
    expect(await foldUsageDays(store, new Date('2026-11-21T01:00:00.000Z'))).toEqual(['2026-11-20']);
    expect(await foldedBefore(store.db)).toBe('2026-11-21');
    expect(await store.db.selectFrom('usage_daily').select(['day', 'requests', 'errors', 'cost']).execute()).toEqual([
      { day: '2026-11-20', requests: 2, errors: 1, cost: 0.5 },
    ]);
    // Days later, every day in between in turn, those without usage too.
    expect(await foldUsageDays(store, new Date('2026-11-24T03:00:00.000Z'))).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    const both = await bothByDay('2026-11-24');
    expect(both.daily).toEqual(both.hourly);
    expect(both.daily).toHaveLength(2);
  });

  it('with no usage at all, starts from the last day it could fold, and a late row adds to its own day', async () => {
    expect(await foldUsageDays(store, new Date('2026-11-21T05:00:00.000Z'))).toEqual([]);
    expect(await foldedBefore(store.db)).toBe('2026-11-21');
    // A row of a folded day written after the fold (an outbox replay, a long job) counts in its day at once.
    await recordGenerations(store.db, [row('2026-11-19T08:00:00.000Z')], new Date('2026-11-21T06:00:00.000Z'));
    const both = await bothByDay('2026-11-21');
    expect(both.daily).toEqual(both.hourly);
    expect(both.daily).toEqual([expect.objectContaining({ day: '2026-11-19', requests: 1 })]);
  });

  it('counts a late row once whether it comes before or after its day is folded', async () => {
    const at = new Date('2026-11-21T00:30:00.000Z');
    await recordGenerations(store.db, [row('2026-11-20T12:00:00.000Z')], new Date('2026-11-20T12:00:01.000Z'));
    // Late (its day is before the commit's) and before the fold: added to the day, which the fold makes again.
    await recordGenerations(store.db, [row('2026-11-20T23:50:00.000Z')], at);
    expect(await foldUsageDays(store, new Date('2026-11-21T02:00:00.000Z'))).toEqual(['2026-11-20']);
    await recordGenerations(store.db, [row('2026-11-20T23:55:00.000Z')], new Date('2026-11-21T02:30:00.000Z'));
    const both = await bothByDay('2026-11-21');
    expect(both.daily).toEqual(both.hourly);
    expect(both.daily).toEqual([expect.objectContaining({ day: '2026-11-20', requests: 3, cost: 1.5 })]);
  });

  it('keeps every folded day equal to its hours while instances fold and write late rows at once', async () => {
    // On PostgreSQL, two folders and a writer of their own pools, as instances are; SQLite has one process and one connection.
    const others = engine.name === 'postgres' ? [openStore(database.url), openStore(database.url)] : [];
    const stores = others.length > 0 ? others : [store, store];
    try {
      for (let day = 1; day <= 6; day++) {
        const date = `2026-10-${String(day).padStart(2, '0')}`;
        await recordGenerations(store.db, [row(`${date}T10:00:00.000Z`)], new Date(`${date}T10:00:01.000Z`));
      }
      const later = new Date('2026-10-09T12:00:00.000Z');
      const writes = Array.from({ length: 24 }, (_, i) =>
        recordGenerations(
          stores[1]!.db,
          [row(`2026-10-0${1 + (i % 6)}T23:${String(i).padStart(2, '0')}:00.000Z`, { api_key_hash: `k${i % 3}` })],
          later,
        ),
      );
      const folds = [foldUsageDays(store, later), foldUsageDays(stores[0]!, later)];
      const folded = (await Promise.all([...folds, ...writes]).then((all) => all.slice(0, 2))) as string[][];
      // Each day folded once, by one or the other.
      expect([...folded[0]!, ...folded[1]!].sort()).toEqual([
        '2026-10-01',
        '2026-10-02',
        '2026-10-03',
        '2026-10-04',
        '2026-10-05',
        '2026-10-06',
        '2026-10-07',
        '2026-10-08',
      ]);
      const both = await bothByDay('2026-10-09');
      expect(both.daily).toEqual(both.hourly);
      expect(both.daily.reduce((n, r) => n + (r.requests as number), 0)).toBe(30);
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });
});

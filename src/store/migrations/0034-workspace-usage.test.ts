import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { generationRow } from '../../accounting/generation-row.testing.js';
import { openStore, type Store } from '../database.js';
import { migrateTo, migrateToLatest } from '../migrate.js';

describe.each(testEngines)('migration 0034-workspace-usage on $name', (engine) => {
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
  afterEach(() => vi.useRealTimers());

  it("starts each workspace's counters from the ledger written before: all it spent, and its day, week and month as of now", async () => {
    await migrateTo(store, '0032-workspaces');
    await store.db
      .insertInto('generations')
      .values([
        generationRow({ workspace_id: 'ws-a', total_cost: 0.25, created_at: '2026-11-25T01:00:00.000Z' }),
        generationRow({ workspace_id: 'ws-a', api_key_hash: 'a deleted key', total_cost: 0.5, created_at: '2026-11-23T08:00:00.000Z' }),
        generationRow({ workspace_id: 'ws-a', total_cost: 1, created_at: '2026-11-02T00:00:00.000Z' }),
        generationRow({ workspace_id: 'ws-a', total_cost: 2, created_at: '2026-10-31T23:59:59.000Z' }),
        generationRow({ workspace_id: 'ws-b', total_cost: 0 }),
      ])
      .execute();
    // A Wednesday: its week began on Monday the 23rd.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T12:00:00.000Z'));
    expect(await migrateToLatest(store)).toContain('0034-workspace-usage');
    expect(await store.db.selectFrom('workspace_usage').selectAll().execute()).toEqual([
      {
        workspace_id: 'ws-a',
        usage: 3.75,
        usage_daily: 0.25,
        usage_daily_period: '2026-11-25',
        usage_weekly: 0.75,
        usage_weekly_period: '2026-11-23',
        usage_monthly: 1.75,
        usage_monthly_period: '2026-11',
        byok_usage: 0,
        byok_usage_daily: 0,
        byok_usage_weekly: 0,
        byok_usage_monthly: 0,
      },
    ]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/databases.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { generationRow } from './generation-row.testing.js';
import { ledgerWrites, ledgerWritesOnce } from './ledger-writes.js';

const counters = (store: Store) =>
  store.db
    .selectFrom('workspace_usage')
    .select(['workspace_id', 'usage', 'usage_daily', 'usage_daily_period', 'usage_weekly', 'usage_weekly_period', 'usage_monthly'])
    .orderBy('workspace_id')
    .execute();

describe.each(testEngines)('workspace spend counters on $name', (engine) => {
  let store: Store;
  let drop: () => Promise<void>;

  afterEach(async () => {
    await store.close();
    await drop();
  });

  const open = async () => {
    const database = await engine.create();
    drop = database.drop;
    store = openStore(database.url);
    await migrateToLatest(store);
  };

  it('adds each ledger commit to its workspaces, whatever key charged, and restarts a period when it ends', async () => {
    await open();
    const write = ledgerWrites(store);
    const sunday = new Date('2026-11-29T23:00:00.000Z');
    await write(
      [
        generationRow({ workspace_id: 'ws-a', api_key_hash: 'k1', total_cost: 0.25 }),
        generationRow({ workspace_id: 'ws-a', api_key_hash: 'k2', total_cost: 0.5 }),
        generationRow({ workspace_id: 'ws-b', api_key_hash: 'k3', total_cost: 0 }),
      ],
      sunday,
    );
    // Monday: a new day and week, the same month.
    await write([generationRow({ workspace_id: 'ws-a', api_key_hash: 'k1', total_cost: 0.125 })], new Date('2026-11-30T01:00:00.000Z'));
    expect(await counters(store)).toEqual([
      {
        workspace_id: 'ws-a',
        usage: 0.875,
        usage_daily: 0.125,
        usage_daily_period: '2026-11-30',
        usage_weekly: 0.125,
        usage_weekly_period: '2026-11-30',
        usage_monthly: 0.875,
      },
    ]);
  });

  it('charges a row the outbox writes again once', async () => {
    await open();
    const now = new Date('2026-11-23T12:00:00.000Z');
    const row = generationRow({ workspace_id: 'ws-a', total_cost: 0.5 });
    await ledgerWrites(store)([row], now);
    await ledgerWritesOnce(store.db)([row, generationRow({ workspace_id: 'ws-a', total_cost: 0.25 })], now);
    expect((await counters(store)).map((c) => c.usage)).toEqual([0.75]);
  });
});

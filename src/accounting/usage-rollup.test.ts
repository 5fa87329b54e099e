import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../test/support/databases.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
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
  const hours = (organizationId: string) =>
    store.db
      .selectFrom('usage_hourly')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('hour')
      .orderBy('api_key_hash')
      .orderBy('provider_name')
      .execute();
  const days = (organizationId: string) =>
    store.db
      .selectFrom('usage_daily')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('day')
      .orderBy('api_key_hash')
      .orderBy('provider_name')
      .execute();
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
});

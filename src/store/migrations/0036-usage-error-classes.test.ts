import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import { migrateTo, migrateToLatest } from '../migrate.js';

describe.each(testEngines)('migration 0036-usage-error-classes on $name', (engine) => {
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

  it('splits the errors the rollups counted before it by status class: a 4xx apart from the rest', async () => {
    await migrateTo(store, '0032-workspaces');
    // Two hours' ledger (a refusal of each kind, a provider's failure, a failure without a status, a success) and their rollups.
    const generation = (id: string, hour: string, status: string, code: number | null) =>
      sql`insert into generations (id, organization_id, workspace_id, api_key_hash, model, provider_name, api_type, status, streamed,
        cancelled, error_code, created_at) values (${id}, 'o1', 'w1', 'k1', 'm1', ${code === null || code >= 500 ? 'p1' : null},
        'completions', ${status}, 0, 0, ${code}, ${`${hour}:10:00.000Z`})`.execute(store.db);
    await generation('g1', '2026-11-20T10', 'error', 404);
    await generation('g2', '2026-11-20T10', 'error', 429);
    await generation('g3', '2026-11-20T10', 'error', 502);
    await generation('g4', '2026-11-20T11', 'error', null);
    await generation('g5', '2026-11-20T11', 'success', null);
    const rollup = (table: 'usage_hourly' | 'usage_daily', at: string, provider: string, requests: number, errors: number) =>
      sql`insert into ${sql.table(table)} (organization_id, ${sql.ref(table === 'usage_hourly' ? 'hour' : 'day')}, workspace_id,
        api_key_hash, model, provider_name, requests, errors, tokens_prompt, tokens_completion, tokens_reasoning, tokens_cached, cost,
        latency_ms_sum, latency_count) values ('o1', ${at}, 'w1', 'k1', 'm1', ${provider}, ${requests}, ${errors}, 0, 0, 0, 0, 0, 0, 0)`.execute(
        store.db,
      );
    await rollup('usage_hourly', '2026-11-20T10', '', 2, 2);
    await rollup('usage_hourly', '2026-11-20T10', 'p1', 1, 1);
    await rollup('usage_hourly', '2026-11-20T11', 'p1', 2, 1);
    await rollup('usage_daily', '2026-11-20', '', 2, 2);
    await rollup('usage_daily', '2026-11-20', 'p1', 3, 2);
    expect(await migrateToLatest(store)).toContain('0036-usage-error-classes');

    const classes = (table: 'usage_hourly' | 'usage_daily') =>
      store.db
        .selectFrom(table)
        .select(['provider_name', 'errors', 'errors_4xx', 'errors_5xx'])
        .orderBy(table === 'usage_hourly' ? 'hour' : 'day')
        .orderBy('provider_name')
        .execute();
    expect(await classes('usage_hourly')).toEqual([
      { provider_name: '', errors: 2, errors_4xx: 2, errors_5xx: 0 },
      { provider_name: 'p1', errors: 1, errors_4xx: 0, errors_5xx: 1 },
      { provider_name: 'p1', errors: 1, errors_4xx: 0, errors_5xx: 1 },
    ]);
    expect(await classes('usage_daily')).toEqual([
      { provider_name: '', errors: 2, errors_4xx: 2, errors_5xx: 0 },
      { provider_name: 'p1', errors: 2, errors_4xx: 0, errors_5xx: 2 },
    ]);
  });
});

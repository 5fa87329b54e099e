import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import { migrateToLatest } from '../migrate.js';
import type { GenerationRecord } from '../schema.js';
import { migrationProvider } from './index.js';

const row = (id: string, fields: Partial<GenerationRecord>): GenerationRecord => ({
  id,
  organization_id: 'o1',
  workspace_id: 'w1',
  api_key_hash: 'k1',
  request_id: null,
  upstream_id: null,
  model: 'm1',
  provider_name: 'p1',
  upstream_model: null,
  app_id: null,
  external_user: null,
  user_hash: null,
  session_id: null,
  api_type: 'completions',
  status: 'success',
  streamed: 0,
  cancelled: 0,
  finish_reason: null,
  native_finish_reason: null,
  service_tier: null,
  cache_discount: null,
  latency_ms: null,
  ttft_ms: null,
  generation_time_ms: null,
  error_code: null,
  error_message: null,
  routing: null,
  origin: null,
  user_agent: null,
  created_at: '2026-11-20T10:15:00.000Z',
  parent_generation_id: null,
  tokens_prompt: 0,
  tokens_completion: 0,
  tokens_reasoning: 0,
  tokens_cached: 0,
  tokens_cache_write: 0,
  total_cost: 0,
  ...fields,
});

describe.each(testEngines)('migration 0021-usage-rollups on $name', (engine) => {
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

  it('sums the ledger written before it by organization, hour, workspace, key, model and provider', async () => {
    const schema =
      engine.name === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]!.s : undefined;
    const migrator = new Migrator({
      db: store.db,
      provider: migrationProvider(engine.name),
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateTo('0020-authorization-code-creator');
    expect(error).toBeUndefined();
    await store.db
      .insertInto('generations')
      .values([
        row('g1', { tokens_prompt: 10, tokens_completion: 5, tokens_reasoning: 2, tokens_cached: 1, total_cost: 0.25, latency_ms: 100 }),
        row('g2', { status: 'error', total_cost: 0, latency_ms: 300, created_at: '2026-11-20T10:59:59.999Z' }),
        row('g3', { provider_name: null, latency_ms: null, total_cost: 0.5, created_at: '2026-11-20T11:00:00.000Z' }),
        row('g4', { organization_id: 'o2', total_cost: 1 }),
      ])
      .execute();
    expect(await migrateToLatest(store)).toContain('0021-usage-rollups');

    const hourly = await store.db.selectFrom('usage_hourly').selectAll().orderBy('organization_id').orderBy('hour').execute();
    // Later migrations' columns (the latency sketches of 0044) left out.
    expect(hourly).toEqual([
      expect.objectContaining({
        organization_id: 'o1',
        hour: '2026-11-20T10',
        workspace_id: 'w1',
        api_key_hash: 'k1',
        model: 'm1',
        provider_name: 'p1',
        requests: 2,
        errors: 1,
        errors_4xx: 0,
        errors_5xx: 1,
        tokens_prompt: 10,
        tokens_completion: 5,
        tokens_reasoning: 2,
        tokens_cached: 1,
        cost: 0.25,
        latency_ms_sum: 400,
        latency_count: 2,
      }),
      expect.objectContaining({
        organization_id: 'o1',
        hour: '2026-11-20T11',
        workspace_id: 'w1',
        api_key_hash: 'k1',
        model: 'm1',
        provider_name: '',
        requests: 1,
        errors: 0,
        errors_4xx: 0,
        errors_5xx: 0,
        tokens_prompt: 0,
        tokens_completion: 0,
        tokens_reasoning: 0,
        tokens_cached: 0,
        cost: 0.5,
        latency_ms_sum: 0,
        latency_count: 0,
      }),
      expect.objectContaining({ organization_id: 'o2', requests: 1, cost: 1 }),
    ]);
    const usage = await store.db.selectFrom('organization_usage').selectAll().orderBy('organization_id').execute();
    expect(usage).toEqual([
      { organization_id: 'o1', usage: 0.75 },
      { organization_id: 'o2', usage: 1 },
    ]);
  });
});

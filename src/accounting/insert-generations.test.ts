import { describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/databases.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import type { GenerationRecord } from '../store/schema.js';
import { insertGenerations } from './insert-generations.js';

const full: GenerationRecord = {
  id: 'gen-full',
  organization_id: 'org',
  workspace_id: 'ws',
  api_key_hash: 'hash',
  request_id: 'req',
  upstream_id: 'up',
  model: 'acme/fast',
  provider_name: 'acme',
  upstream_model: 'fast-1',
  app_id: 7,
  external_user: 'ext',
  user_hash: 'uh',
  session_id: 'sess',
  api_type: 'completions',
  status: 'success',
  streamed: 1,
  cancelled: 0,
  finish_reason: 'stop',
  native_finish_reason: 'end_turn',
  service_tier: 'default',
  tokens_prompt: 11,
  tokens_completion: 22,
  tokens_cached: 3,
  tokens_cache_write: 4,
  tokens_reasoning: 5,
  total_cost: 0.25,
  cache_discount: 0.01,
  latency_ms: 100,
  ttft_ms: 20,
  generation_time_ms: 80,
  error_code: 502,
  error_name: 'GW_ERR_UPSTREAM_FAILED',
  error_message: 'x',
  routing: '{"attempts":[]}',
  origin: 'https://app.example',
  app_title: 'App',
  user_agent: 'ua',
  created_at: '2026-11-21T12:00:00.000Z',
  parent_generation_id: 'gen-parent',
  intern_run_id: 'run-1',
  usage_estimated: 1,
  is_byok: 1,
  byok_cost: 0.5,
};

describe.each(testEngines)('insertGenerations on $name', (engine) => {
  it('writes every column of every row, across batch sizes and transactions', async () => {
    const database = await engine.create();
    const store = openStore(database.url);
    try {
      await migrateToLatest(store);
      await insertGenerations(store.db, [full]);
      await store.db.transaction().execute((trx) =>
        insertGenerations(trx, [
          { ...full, id: 'gen-2' },
          { ...full, id: 'gen-3', app_id: null },
        ]),
      );
      const rows = await store.db.selectFrom('generations').selectAll().orderBy('id').execute();
      expect(rows.map((r) => r.id)).toEqual(['gen-2', 'gen-3', 'gen-full']);
      expect(rows[2]).toEqual(full);
      expect(rows[1]?.app_id).toBeNull();
      const minimal = { ...full, id: 'gen-min' } as Partial<GenerationRecord>;
      delete minimal.tokens_prompt;
      delete minimal.total_cost;
      delete minimal.usage_estimated;
      await insertGenerations(store.db, [minimal as GenerationRecord]);
      const min = await store.db.selectFrom('generations').selectAll().where('id', '=', 'gen-min').executeTakeFirstOrThrow();
      expect(min.tokens_prompt).toBe(0);
      expect(min.total_cost).toBe(0);
      expect(min.usage_estimated).toBe(0);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

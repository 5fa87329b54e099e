import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import { migrateToLatest } from '../migrate.js';

describe.each(testEngines)('migration 0012-interns on $name', (engine) => {
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

  it('applies after 0011 and creates tables that take and return rows', async () => {
    const applied = await migrateToLatest(store);
    expect(applied.indexOf('0012-interns')).toBe(applied.indexOf('0011-generation-parent') + 1);
    const at = '2026-11-23T00:00:00.000Z';
    await store.db.insertInto('intern_programme').values({ organization_id: 'o1', enrolled_at: at }).execute();
    await store.db
      .insertInto('interns')
      .values({
        id: 'i1',
        organization_id: 'o1',
        workspace_id: 'w1',
        name: 'n',
        description: null,
        instructions: null,
        model: null,
        status: 'queued',
        progress: null,
        last_failure_message: null,
        vault_id: null,
        settings: '{}',
        created_by_user_id: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await store.db
      .insertInto('intern_sessions')
      .values({ id: 's1', intern_id: 'i1', organization_id: 'o1', api_key_hash: 'h', origin: 'invoke', created_at: at })
      .execute();
    await store.db
      .insertInto('intern_runs')
      .values({
        id: 'r1',
        session_id: 's1',
        intern_id: 'i1',
        organization_id: 'o1',
        api_key_hash: 'h',
        approval_mode: 'self-drive',
        status: 'running',
        end_reason: null,
        error: null,
        started_at: at,
        ended_at: null,
        deadline_at: at,
        claimed_by: null,
        claimed_until: null,
        pending: null,
        updated_at: at,
      })
      .execute();
    const run = await store.db.selectFrom('intern_runs').selectAll().where('id', '=', 'r1').executeTakeFirstOrThrow();
    expect(run.cost).toBe(0);
    expect(run.steps).toBe(0);
    await store.db
      .insertInto('intern_run_steps')
      .values({ run_id: 'r1', seq: 1, kind: 'input', content: '"hi"', generation_id: null, created_at: at })
      .execute();
    // (run_id, seq) is the key: a second step 1 is refused.
    await expect(
      store.db
        .insertInto('intern_run_steps')
        .values({ run_id: 'r1', seq: 1, kind: 'input', content: '"x"', generation_id: null, created_at: at })
        .execute(),
    ).rejects.toThrow();
    await store.db
      .insertInto('intern_vault_secrets')
      .values({ intern_id: 'i1', name: 'K', ciphertext: 'c', created_at: at, updated_at: at })
      .execute();
    await expect(
      store.db
        .insertInto('intern_vault_secrets')
        .values({ intern_id: 'i1', name: 'K', ciphertext: 'd', created_at: at, updated_at: at })
        .execute(),
    ).rejects.toThrow();
    const gen = await store.db.selectFrom('generations').select('intern_run_id').limit(1).execute();
    expect(gen).toEqual([]);
  });
});

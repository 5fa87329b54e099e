import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import { migrateTo, migrateToLatest } from '../migrate.js';

describe.each(testEngines)('migration 0041-dataset-rollups on $name', (engine) => {
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

  it('rolls the ledger written before it by app and day, and by session', async () => {
    await migrateTo(store, '0036-usage-error-classes');
    const generation = (id: string, at: string, origin: string | null, session: string | null, status: string, finish: string | null) =>
      sql`insert into generations (id, organization_id, workspace_id, api_key_hash, model, api_type, status, streamed, cancelled,
        tokens_prompt, tokens_completion, total_cost, finish_reason, origin, session_id, created_at)
        values (${id}, 'o1', 'w1', 'k1', 'm1', 'completions', ${status}, 0, 0, 10, 5, 0.25, ${finish}, ${origin}, ${session}, ${at})`.execute(
        store.db,
      );
    // Two paths of one host on one day are one app; a failed turn costs but is no turn.
    await generation('g1', '2026-11-20T10:00:00.000Z', 'https://app.example/a', 's1', 'success', 'stop');
    await generation('g2', '2026-11-20T11:00:00.000Z', 'https://app.example/b', 's1', 'success', 'tool_calls');
    await generation('g3', '2026-11-21T09:00:00.000Z', 'https://app.example/a', 's1', 'error', null);
    await generation('g4', '2026-11-21T09:30:00.000Z', null, null, 'success', 'stop');
    expect(await migrateToLatest(store)).toContain('0041-dataset-rollups');

    const days = await store.db.selectFrom('app_usage_daily').selectAll().orderBy('day').orderBy('app').execute();
    expect(
      days.map((d) => ({ ...d, requests: Number(d.requests), tokens: Number(d.tokens), tool_call_requests: Number(d.tool_call_requests) })),
    ).toEqual([
      {
        organization_id: 'o1',
        day: '2026-11-20',
        workspace_id: 'w1',
        app: 'app-example',
        model: 'm1',
        app_name: 'app.example',
        requests: 2,
        tokens: 30,
        tool_call_requests: 1,
      },
      {
        organization_id: 'o1',
        day: '2026-11-21',
        workspace_id: 'w1',
        app: '',
        model: 'm1',
        app_name: '',
        requests: 1,
        tokens: 15,
        tool_call_requests: 0,
      },
      {
        organization_id: 'o1',
        day: '2026-11-21',
        workspace_id: 'w1',
        app: 'app-example',
        model: 'm1',
        app_name: 'app.example',
        requests: 1,
        tokens: 15,
        tool_call_requests: 0,
      },
    ]);
    const sessions = await store.db.selectFrom('session_usage').selectAll().execute();
    expect(sessions.map((s) => ({ ...s, turns: Number(s.turns) }))).toEqual([
      {
        organization_id: 'o1',
        workspace_id: 'w1',
        session_id: 's1',
        app: 'app-example',
        model: 'm1',
        app_name: 'app.example',
        turns: 2,
        cost: 0.75,
        last_day: '2026-11-21',
      },
    ]);
  });
});

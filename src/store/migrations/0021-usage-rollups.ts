import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { COUNT, MONEY, TEXT } from './column-types.js';

/**
 * What the ledger's readers by time need, kept as the ledger is written (in
 * the same transaction as its rows; accounting/usage-rollup.ts), so that no
 * index by organization or key slows every ledger write (migration 0017):
 *
 * - usage_hourly: one row per organization, UTC hour ('YYYY-MM-DDTHH'),
 *   workspace, key, model and provider ('' when none served), with the sums
 *   analytics and activity read: a 30-day query reads the organization's
 *   rows of 720 hours through the primary key, never the ledger. On SQLite
 *   the table is its primary key (WITHOUT ROWID): one B-tree a write.
 * - organization_usage: what each organization spent in all, the usage that
 *   its credits are checked against.
 *
 * Both start from the ledger's rows written before.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const hourly = db.schema
    .createTable('usage_hourly')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('hour', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('provider_name', TEXT, (c) => c.notNull())
    .addColumn('requests', COUNT, (c) => c.notNull())
    .addColumn('errors', COUNT, (c) => c.notNull())
    .addColumn('tokens_prompt', COUNT, (c) => c.notNull())
    .addColumn('tokens_completion', COUNT, (c) => c.notNull())
    .addColumn('tokens_reasoning', COUNT, (c) => c.notNull())
    .addColumn('tokens_cached', COUNT, (c) => c.notNull())
    .addColumn('cost', MONEY, (c) => c.notNull())
    .addColumn('latency_ms_sum', COUNT, (c) => c.notNull())
    .addColumn('latency_count', COUNT, (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_hourly_pk', ['organization_id', 'hour', 'workspace_id', 'api_key_hash', 'model', 'provider_name']);
  await (engine === 'sqlite' ? hourly.modifyEnd(sql`without rowid`) : hourly).execute();
  await db.schema
    .createTable('organization_usage')
    .addColumn('organization_id', TEXT, (c) => c.primaryKey())
    .addColumn('usage', MONEY, (c) => c.notNull())
    .execute();

  await sql`
    insert into usage_hourly
    select organization_id, substr(created_at, 1, 13), workspace_id, api_key_hash, model, coalesce(provider_name, ''),
      count(*), sum(case when status = 'error' then 1 else 0 end),
      sum(tokens_prompt), sum(tokens_completion), sum(tokens_reasoning), sum(tokens_cached), sum(total_cost),
      sum(coalesce(latency_ms, 0)), count(latency_ms)
    from generations
    group by organization_id, substr(created_at, 1, 13), workspace_id, api_key_hash, model, coalesce(provider_name, '')
  `.execute(db);
  await sql`
    insert into organization_usage
    select organization_id, sum(total_cost) from generations group by organization_id having sum(total_cost) <> 0
  `.execute(db);
}

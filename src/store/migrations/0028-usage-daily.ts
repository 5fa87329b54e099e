import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { COUNT, MONEY, TEXT } from './column-types.js';

/**
 * usage_daily: usage_hourly's sums by UTC day ('YYYY-MM-DD'), kept in the
 * same commit by the same writer (accounting/usage-rollup.ts). A 30-day query
 * grouped by day, or by model or key over whole days, reads an organization's
 * rows of 30 days instead of 720 hours: at a million generations a month,
 * about 13 times fewer rows, and reading and grouping those rows was the whole
 * of its time (bench/analytics.ts). On SQLite the table is its primary key.
 * It starts from usage_hourly's rows.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const daily = db.schema
    .createTable('usage_daily')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('day', TEXT, (c) => c.notNull())
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
    .addPrimaryKeyConstraint('usage_daily_pk', ['organization_id', 'day', 'workspace_id', 'api_key_hash', 'model', 'provider_name']);
  await (engine === 'sqlite' ? daily.modifyEnd(sql`without rowid`) : daily).execute();
  await sql`
    insert into usage_daily
    select organization_id, substr(hour, 1, 10), workspace_id, api_key_hash, model, provider_name,
      sum(requests), sum(errors), sum(tokens_prompt), sum(tokens_completion), sum(tokens_reasoning), sum(tokens_cached),
      sum(cost), sum(latency_ms_sum), sum(latency_count)
    from usage_hourly
    group by organization_id, substr(hour, 1, 10), workspace_id, api_key_hash, model, provider_name
  `.execute(db);
}

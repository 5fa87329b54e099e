import { type Kysely, sql } from 'kysely';
import { TEXT } from './column-types.js';

/**
 * usage_daily_folds: how far usage_daily is complete. Migration 0028 kept
 * usage_daily in the ledger's own commit, which cost every write a second
 * upsert; from here a day is folded into usage_daily from usage_hourly once
 * it is over (accounting/usage-day-folds.ts), and readers take from
 * usage_daily only the days before `folded_before` ('YYYY-MM-DD', exclusive;
 * null: none yet), the rest from usage_hourly.
 *
 * Until now every day was kept whole in the same commit as its hours, so all
 * the days before the newest one in usage_daily are complete; the newest may
 * be today's, still filling, and is folded again later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_daily_folds')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('folded_before', TEXT)
    .execute();
  await sql`insert into usage_daily_folds (id, folded_before) select 1, max(day) from usage_daily`.execute(db);
}

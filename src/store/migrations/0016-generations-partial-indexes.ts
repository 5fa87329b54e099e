import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Most ledger rows have neither a parent generation nor an intern run, and
 * every row written also wrote those NULLs into both indexes: two more pages
 * in each commit of the hot path. Only the rows that have one are looked up
 * by it, so the indexes keep only those.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  for (const [name, column] of [
    ['generations_parent', 'parent_generation_id'],
    ['generations_intern_run', 'intern_run_id'],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('generations').column(column).where(sql.ref(column), 'is not', null).execute();
  }
}

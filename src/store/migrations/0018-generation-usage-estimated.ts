import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT } from './column-types.js';

/**
 * Whether a generation's token counts are the gateway's own rather than the
 * upstream's: it reported none, or figures that could not be billed
 * (accounting/check-usage.ts). 1 or 0; rows written before say 0.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('generations')
    .addColumn('usage_estimated', INT, (c) => c.notNull().defaultTo(0))
    .execute();
}

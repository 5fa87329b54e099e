import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';

/** Installation-wide values every instance must agree on (e.g. the end-user hash key). */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('gateway_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

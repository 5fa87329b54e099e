import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * The generation an inner call was made for (a fusion panelist or analyst,
 * a server tool's own model call): its row is charged on its own and points
 * at the request that caused it, so a request's whole cost can be found.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('generations').addColumn('parent_generation_id', TEXT).execute();
  await db.schema.createIndex('generations_parent').on('generations').column('parent_generation_id').execute();
}

import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * The catalogue name (GW_ERR_…, docs/errors.md) of the error a failed
 * generation answered, beside error_code, which keeps the HTTP status it had.
 * Rows written before, and failures that are no error of the catalogue (a
 * video job the provider failed), have none.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('generations').addColumn('error_name', TEXT).execute();
}

import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * The ledger is read by generation id (the primary key) and by intern run;
 * nothing reads it by organization or key and time, yet every row written
 * also went into those two indexes: two of the four B-trees a row touches,
 * half the WAL pages of a one-row commit and 15-20 % of the ledger's CPU per
 * row. A feature that lists the ledger by time adds the index its query needs.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.dropIndex('generations_org_created').execute();
  await db.schema.dropIndex('generations_key_created').execute();
}

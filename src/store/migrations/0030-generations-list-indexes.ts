import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * GET /generations lists an organization's ledger newest first, optionally of one key. 0017 dropped the
 * indexes of that order because nothing read them then; the list reads them now, so a page of a million-row
 * ledger is an index range scan rather than a sort of the whole table.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.createIndex('generations_org_recent').on('generations').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('generations_key_recent').on('generations').columns(['api_key_hash', 'created_at', 'id']).execute();
}

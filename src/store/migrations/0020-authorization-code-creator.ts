import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * The key that created an authorization code, so that the exchange checks it
 * again (still live, limit not spent, the code's terms within what it has
 * left): a minted key is never more than the key that asked. Codes created
 * before this column (a few minutes' worth at the upgrade) have none and are
 * refused at the exchange.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('authorization_codes').addColumn('creator_key_hash', TEXT).execute();
}

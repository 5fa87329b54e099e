import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * Idempotency keys of intern creates: the intern a caller's key (sent as
 * Idempotency-Key, or derived from the body) created, and the body it was
 * created with, so a retry answers with that intern instead of a second one.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('intern_create_keys')
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('source', TEXT, (c) => c.notNull())
    .addColumn('key', TEXT, (c) => c.notNull())
    .addColumn('body_hash', TEXT, (c) => c.notNull())
    .addColumn('intern_id', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('intern_create_keys_pk', ['api_key_hash', 'source', 'key'])
    .execute();
}

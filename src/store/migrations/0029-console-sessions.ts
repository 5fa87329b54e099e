import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * Sessions of the web console (/console): a management key signs in once and the browser holds a random
 * session id in an HttpOnly cookie. Only the id's SHA-256 is stored, so a copy of the table opens no session.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('last_seen_at', TEXT, (c) => c.notNull())
    .addColumn('expires_at', TEXT, (c) => c.notNull())
    .execute();
  // Sign-in sweeps the sessions that ended: by when they were last seen.
  await db.schema.createIndex('console_sessions_last_seen').on('console_sessions').column('last_seen_at').execute();
}

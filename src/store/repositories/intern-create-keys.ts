import type { Kysely, Selectable } from 'kysely';
import type { Database, InternCreateKeysTable } from '../schema.js';

export type InternCreateKeyRow = Selectable<InternCreateKeysTable>;
export type CreateKeyRef = Pick<InternCreateKeyRow, 'api_key_hash' | 'source' | 'key'>;

/** The create this key answered, if it was made at `since` or later. */
export function findCreateKey(db: Kysely<Database>, ref: CreateKeyRef, since: Date): Promise<InternCreateKeyRow | undefined> {
  return db
    .selectFrom('intern_create_keys')
    .selectAll()
    .where('api_key_hash', '=', ref.api_key_hash)
    .where('source', '=', ref.source)
    .where('key', '=', ref.key)
    .where('created_at', '>=', since.toISOString())
    .executeTakeFirst();
}

/** Forgets the caller's keys of this source made before `before` (past their window), so the key may be used anew. */
export async function forgetCreateKeys(
  db: Kysely<Database>,
  { api_key_hash, source }: Pick<CreateKeyRef, 'api_key_hash' | 'source'>,
  before: Date,
): Promise<void> {
  await db
    .deleteFrom('intern_create_keys')
    .where('api_key_hash', '=', api_key_hash)
    .where('source', '=', source)
    .where('created_at', '<', before.toISOString())
    .execute();
}

/** Refused by the primary key when the same key was stored meanwhile: the caller then answers as that create did. */
export async function insertCreateKey(db: Kysely<Database>, row: InternCreateKeyRow): Promise<void> {
  await db.insertInto('intern_create_keys').values(row).execute();
}

import type { Kysely, Selectable } from 'kysely';
import type { ConsoleSessionsTable, Database } from '../schema.js';

export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;

/** A session with what decides whether its key still stands behind it (api/console/session-auth.ts, sessionKeyStands). */
export interface ConsoleSessionWithKey extends ConsoleSessionRow {
  /** The key's `disabled`; null when the key is gone. */
  key_disabled: number | null;
  key_creator_user_id: string | null;
  /** The key's creator when still a member of the key's organization; null otherwise. */
  creator_member_id: string | null;
}

export async function insertConsoleSession(db: Kysely<Database>, row: ConsoleSessionRow): Promise<void> {
  await db.insertInto('console_sessions').values(row).execute();
}

export function findConsoleSession(db: Kysely<Database>, idHash: string): Promise<ConsoleSessionWithKey | undefined> {
  return db
    .selectFrom('console_sessions as s')
    .leftJoin('api_keys as k', 'k.hash', 's.api_key_hash')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.organization_id', '=', 'k.organization_id').onRef('m.user_id', '=', 'k.creator_user_id'),
    )
    .selectAll('s')
    .select(['k.disabled as key_disabled', 'k.creator_user_id as key_creator_user_id', 'm.user_id as creator_member_id'])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
}

export async function touchConsoleSession(db: Kysely<Database>, idHash: string, at: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteConsoleSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of these keys: they were disabled or deleted, and enabling one again must not bring them back. */
export async function deleteKeysConsoleSessions(db: Kysely<Database>, apiKeyHashes: readonly string[]): Promise<void> {
  if (apiKeyHashes.length === 0) return;
  await db.deleteFrom('console_sessions').where('api_key_hash', 'in', apiKeyHashes).execute();
}

/** Ends every session of the keys a member created in an organization: the member was removed from it. */
export async function deleteMemberConsoleSessions(db: Kysely<Database>, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where('api_key_hash', 'in', (eb) =>
      eb.selectFrom('api_keys').select('hash').where('organization_id', '=', organizationId).where('creator_user_id', '=', userId),
    )
    .execute();
}

/** Removes every session idle since before `idleBefore` or past its end. */
export async function deleteEndedConsoleSessions(db: Kysely<Database>, idleBefore: string, now: string): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('expires_at', '<=', now)]))
    .execute();
}

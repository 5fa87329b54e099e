import type { Kysely, Selectable } from 'kysely';
import type { ConsoleSessionsTable, Database } from '../schema.js';

export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;

export async function insertConsoleSession(db: Kysely<Database>, row: ConsoleSessionRow): Promise<void> {
  await db.insertInto('console_sessions').values(row).execute();
}

export function findConsoleSession(db: Kysely<Database>, idHash: string): Promise<ConsoleSessionRow | undefined> {
  return db.selectFrom('console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export async function touchConsoleSession(db: Kysely<Database>, idHash: string, at: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteConsoleSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
}

/** Removes every session idle since before `idleBefore` or past its end. */
export async function deleteEndedConsoleSessions(db: Kysely<Database>, idleBefore: string, now: string): Promise<void> {
  await db
    .deleteFrom('console_sessions')
    .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('expires_at', '<=', now)]))
    .execute();
}

import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuthorizationCodesTable, Database } from '../schema.js';

export type AuthorizationCode = Selectable<AuthorizationCodesTable>;

export async function insertAuthorizationCode(db: Kysely<Database>, row: Insertable<AuthorizationCodesTable>): Promise<void> {
  await db.insertInto('authorization_codes').values(row).execute();
}

/** An unused, unexpired code of this organization that already carries this challenge. */
export async function hasLiveCodeForChallenge(
  db: Kysely<Database>,
  organizationId: string,
  challenge: string,
  now: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('authorization_codes')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('code_challenge', '=', challenge)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export function findAuthorizationCode(db: Kysely<Database>, id: string): Promise<AuthorizationCode | undefined> {
  return db.selectFrom('authorization_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the code used; false when another request used it first (a code works once). */
export async function consumeAuthorizationCode(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('authorization_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

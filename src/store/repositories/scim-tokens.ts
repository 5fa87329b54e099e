import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface ScimTokenRecord {
  label: string;
  created_at: string;
  created_by: string | null;
}

/** Stores the organization's SCIM token by its hash, replacing (rotating) the one before. */
export async function putScimToken(
  db: Kysely<Database>,
  organizationId: string,
  tokenHash: string,
  record: ScimTokenRecord,
): Promise<void> {
  await db
    .insertInto('scim_tokens')
    .values({ organization_id: organizationId, token_hash: tokenHash, ...record })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ token_hash: tokenHash, ...record }))
    .execute();
}

/** The organization a SCIM token belongs to, or undefined for a token that is not current. */
export async function scimTokenOrganization(db: Kysely<Database>, tokenHash: string): Promise<string | undefined> {
  const row = await db.selectFrom('scim_tokens').select('organization_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row?.organization_id;
}

export async function deleteScimToken(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const result = await db.deleteFrom('scim_tokens').where('organization_id', '=', organizationId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

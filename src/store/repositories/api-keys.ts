import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { keyReachClause, type Reach } from '../reach.js';
import type { ApiKeysTable, Database } from '../schema.js';
import { deleteKeysConsoleSessions } from './console-sessions.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type ApiKeyPatch = Pick<
  Updateable<ApiKeysTable>,
  'name' | 'disabled' | 'limit_usd' | 'limit_reset' | 'include_byok_in_limit' | 'workspace_id' | 'updated_at'
>;

export async function insertApiKey(db: Kysely<Database>, row: NewApiKeyRow): Promise<ApiKeyRow> {
  await db.insertInto('api_keys').values(row).execute();
  return db.selectFrom('api_keys').selectAll().where('hash', '=', row.hash).executeTakeFirstOrThrow();
}

/** Any key by hash: the authentication lookup, before an organization is known. */
export function findApiKeyByHash(db: Kysely<Database>, hash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
}

/** A key of this organization; another organization's key is as absent as a missing one. */
export function findApiKey(db: Kysely<Database>, organizationId: string, hash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('organization_id', '=', organizationId).where('hash', '=', hash).executeTakeFirst();
}

export interface ApiKeyListQuery {
  reach: Reach;
  workspaceId: string;
  includeDisabled: boolean;
  offset: number;
  limit: number;
}

export function listApiKeys(db: Kysely<Database>, q: ApiKeyListQuery): Promise<ApiKeyRow[]> {
  let query = db
    .selectFrom('api_keys')
    .selectAll()
    .where('organization_id', '=', q.reach.organizationId)
    .where(keyReachClause(q.reach))
    .where('workspace_id', '=', q.workspaceId);
  if (!q.includeDisabled) query = query.where('disabled', '=', 0);
  return query.orderBy('created_at').orderBy('hash').offset(q.offset).limit(q.limit).execute();
}

export async function updateApiKey(
  db: Kysely<Database>,
  organizationId: string,
  hash: string,
  patch: ApiKeyPatch,
): Promise<ApiKeyRow | undefined> {
  const updated = await db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('api_keys')
      .set(patch)
      .where('organization_id', '=', organizationId)
      .where('hash', '=', hash)
      .executeTakeFirst();
    // A disabled key's console sessions end for good: enabling it again opens none of them.
    if (result.numUpdatedRows > 0n && patch.disabled === 1) await deleteKeysConsoleSessions(tx, [hash]);
    return result.numUpdatedRows > 0n;
  });
  return updated ? findApiKey(db, organizationId, hash) : undefined;
}

export async function deleteApiKey(db: Kysely<Database>, organizationId: string, hash: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom('api_keys')
      .where('organization_id', '=', organizationId)
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (result.numDeletedRows > 0n) await deleteKeysConsoleSessions(tx, [hash]);
    // A deleted key's guardrail assignment goes with it.
    await tx
      .deleteFrom('guardrail_assignments')
      .where('organization_id', '=', organizationId)
      .where('scope', '=', 'api-key')
      .where('target_id', '=', hash)
      .execute();
    return result.numDeletedRows > 0n;
  });
}

/** The hashes of an organization's keys. */
export async function organizationKeyHashes(db: Kysely<Database>, organizationId: string): Promise<string[]> {
  return (await db.selectFrom('api_keys').select('hash').where('organization_id', '=', organizationId).execute()).map((row) => row.hash);
}

/** The keys a member created (in one workspace, or in the whole organization when null): a member budget counts all of them. */
export function memberKeys(db: Kysely<Database>, organizationId: string, userId: string, workspaceId: string | null): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('api_keys').selectAll().where('organization_id', '=', organizationId).where('creator_user_id', '=', userId);
  if (workspaceId !== null) query = query.where('workspace_id', '=', workspaceId);
  return query.execute();
}

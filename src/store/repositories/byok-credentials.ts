import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { ByokCredentialsTable, Database } from '../schema.js';

export type ByokCredentialRow = Selectable<ByokCredentialsTable>;

/**
 * The credentials of the reach that are not deleted, by sort_order then age;
 * `workspaceId` narrows them to a workspace's (with `organizationWide`, the
 * organization's too, which its requests may use as well), `provider` to a
 * provider's.
 */
export async function listByokCredentials(
  db: Kysely<Database>,
  reach: Reach,
  filter: {
    workspaceId?: string | undefined;
    organizationWide?: boolean;
    provider?: string | undefined;
    offset: number;
    limit: number;
  },
): Promise<{ rows: ByokCredentialRow[]; total: number }> {
  let query = db
    .selectFrom('byok_credentials')
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('deleted_at', 'is', null);
  const { workspaceId } = filter;
  if (workspaceId !== undefined)
    query = query.where((eb) =>
      filter.organizationWide
        ? eb.or([eb('workspace_id', '=', workspaceId), eb('workspace_id', 'is', null)])
        : eb('workspace_id', '=', workspaceId),
    );
  if (filter.provider !== undefined) query = query.where('provider', '=', filter.provider);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('sort_order').orderBy('created_at').orderBy('id').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findByokCredential(db: Kysely<Database>, reach: Reach, id: string): Promise<ByokCredentialRow | undefined> {
  return db
    .selectFrom('byok_credentials')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function insertByokCredential(db: Kysely<Database>, row: Insertable<ByokCredentialsTable>): Promise<ByokCredentialRow> {
  await db.insertInto('byok_credentials').values(row).execute();
  return (await db.selectFrom('byok_credentials').selectAll().where('id', '=', row.id).executeTakeFirst())!;
}

export async function updateByokCredential(
  db: Kysely<Database>,
  reach: Reach,
  id: string,
  changes: Updateable<ByokCredentialsTable>,
): Promise<ByokCredentialRow | undefined> {
  await db
    .updateTable('byok_credentials')
    .set(changes)
    .where('id', '=', id)
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('deleted_at', 'is', null)
    .execute();
  return findByokCredential(db, reach, id);
}

/** Marks the credential deleted and wipes its material (the sealed key and its wrapped data key). */
export async function deleteByokCredential(db: Kysely<Database>, reach: Reach, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('byok_credentials')
    .set({ deleted_at: now, updated_at: now, sealed_key: null, wrapped_data_key: null, master_key_id: null, disabled: 1 })
    .where('id', '=', id)
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every usable credential of every organization (not deleted, not disabled): what the in-memory credential cache holds. */
export function usableByokCredentials(db: Kysely<Database>): Promise<ByokCredentialRow[]> {
  return db
    .selectFrom('byok_credentials')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where('disabled', '=', 0)
    .where('sealed_key', 'is not', null)
    .execute();
}

/** The organizations that forbid a failing BYOK credential's fallback to the gateway's own. */
export async function organizationsWithoutByokFallback(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('organization_settings').select('organization_id').where('byok_fallback', '=', 0).execute();
  return rows.map((r) => r.organization_id);
}

/** The rows whose data key another master key wraps, for `byok rewrap`. */
export function credentialsWrappedOtherThan(db: Kysely<Database>, masterKeyId: string): Promise<ByokCredentialRow[]> {
  return db
    .selectFrom('byok_credentials')
    .selectAll()
    .where('wrapped_data_key', 'is not', null)
    .where('master_key_id', '!=', masterKeyId)
    .execute();
}

export async function setWrappedDataKey(db: Kysely<Database>, id: string, wrappedDataKey: string, masterKeyId: string): Promise<void> {
  await db
    .updateTable('byok_credentials')
    .set({ wrapped_data_key: wrappedDataKey, master_key_id: masterKeyId })
    .where('id', '=', id)
    .execute();
}

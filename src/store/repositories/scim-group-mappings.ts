import type { Kysely, Selectable } from 'kysely';
import type { Database, ScimGroupMappingsTable, WorkspaceRole } from '../schema.js';

export type ScimGroupMappingRow = Selectable<ScimGroupMappingsTable>;

export async function listGroupMappings(
  db: Kysely<Database>,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ rows: ScimGroupMappingRow[]; total: number }> {
  const base = db.selectFrom('scim_group_mappings').where('organization_id', '=', organizationId);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export function findGroupMapping(db: Kysely<Database>, organizationId: string, id: string): Promise<ScimGroupMappingRow | undefined> {
  return db
    .selectFrom('scim_group_mappings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findGroupMappingByPair(
  db: Kysely<Database>,
  groupId: string,
  workspaceId: string,
): Promise<ScimGroupMappingRow | undefined> {
  return db
    .selectFrom('scim_group_mappings')
    .selectAll()
    .where('scim_group_id', '=', groupId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

export async function insertGroupMapping(db: Kysely<Database>, row: ScimGroupMappingRow): Promise<void> {
  await db.insertInto('scim_group_mappings').values(row).execute();
}

export async function setGroupMappingRole(db: Kysely<Database>, id: string, role: WorkspaceRole, now: string): Promise<void> {
  await db.updateTable('scim_group_mappings').set({ role, updated_at: now }).where('id', '=', id).execute();
}

export async function deleteGroupMapping(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('scim_group_mappings').where('id', '=', id).execute();
}

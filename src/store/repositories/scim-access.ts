import type { Kysely } from 'kysely';
import type { Database, WorkspaceRole } from '../schema.js';

/**
 * The access SCIM grants and takes away: organization memberships, workspace memberships
 * (workspace_members, marked scim_managed when a group mapping granted them) and the management
 * keys of a deprovisioned user.
 */

/** Makes a provisioned user a member of the organization; one who already is keeps their role. True when added. */
export async function ensureOrganizationMember(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .insertInto('memberships')
    .values({ organization_id: organizationId, user_id: userId, role: 'member', created_at: now })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

const organizationWorkspaces = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('workspaces').select('id').where('organization_id', '=', organizationId);

/**
 * Takes a user's access to the organization away: its membership, every workspace membership in it,
 * and the management keys they created (disabled): the hashes of the keys disabled.
 */
export async function revokeOrganizationAccess(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  now: string,
): Promise<string[]> {
  await db.deleteFrom('memberships').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  await db
    .deleteFrom('workspace_members')
    .where('user_id', '=', userId)
    .where('workspace_id', 'in', organizationWorkspaces(db, organizationId))
    .execute();
  const keys = await db
    .selectFrom('api_keys')
    .select('hash')
    .where('organization_id', '=', organizationId)
    .where('creator_user_id', '=', userId)
    .where('is_management', '=', 1)
    .where('disabled', '=', 0)
    .execute();
  const hashes = keys.map((key) => key.hash);
  if (hashes.length > 0) await db.updateTable('api_keys').set({ disabled: 1, updated_at: now }).where('hash', 'in', hashes).execute();
  return hashes;
}

export interface GrantInputs {
  mappings: { groupId: string; workspaceId: string; role: WorkspaceRole }[];
  members: { groupId: string; userId: string }[];
  active: Set<string>;
  current: { workspaceId: string; userId: string; role: WorkspaceRole; scimManaged: boolean }[];
}

/** What deciding these users' workspace memberships needs: the mappings to live workspaces, their groups, who is active, what is. */
export async function grantInputs(db: Kysely<Database>, organizationId: string, userIds: string[]): Promise<GrantInputs> {
  if (userIds.length === 0) return { mappings: [], members: [], active: new Set(), current: [] };
  const [mappings, members, active, current] = await Promise.all([
    db
      .selectFrom('scim_group_mappings')
      .innerJoin('workspaces', 'workspaces.id', 'scim_group_mappings.workspace_id')
      .select([
        'scim_group_mappings.scim_group_id as groupId',
        'scim_group_mappings.workspace_id as workspaceId',
        'scim_group_mappings.role',
      ])
      .where('scim_group_mappings.organization_id', '=', organizationId)
      .where('workspaces.deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('scim_group_members')
      .select(['group_id as groupId', 'user_id as userId'])
      .where('organization_id', '=', organizationId)
      .where('user_id', 'in', userIds)
      .execute(),
    db
      .selectFrom('scim_users')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('active', '=', 1)
      .where('user_id', 'in', userIds)
      .execute(),
    db
      .selectFrom('workspace_members')
      .select(['workspace_id as workspaceId', 'user_id as userId', 'role', 'scim_managed'])
      .where('user_id', 'in', userIds)
      .where('workspace_id', 'in', organizationWorkspaces(db, organizationId))
      .execute(),
  ]);
  return {
    mappings,
    members,
    active: new Set(active.map((row) => row.user_id)),
    current: current.map(({ scim_managed, ...row }) => ({ ...row, scimManaged: scim_managed === 1 })),
  };
}

export interface MembershipWrites {
  insert: { workspaceId: string; userId: string; role: WorkspaceRole }[];
  update: { workspaceId: string; userId: string; role: WorkspaceRole }[];
  remove: { workspaceId: string; userId: string }[];
}

/** Writes a plan of workspace memberships, each insert marked as granted by SCIM. */
export async function writeMemberships(db: Kysely<Database>, plan: MembershipWrites, newId: () => string, now: string): Promise<void> {
  if (plan.insert.length > 0)
    await db
      .insertInto('workspace_members')
      .values(
        plan.insert.map((row) => ({
          id: newId(),
          workspace_id: row.workspaceId,
          user_id: row.userId,
          role: row.role,
          created_at: now,
          scim_managed: 1,
        })),
      )
      // One added by hand meanwhile stays as it is.
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
      .execute();
  for (const row of plan.update)
    await db
      .updateTable('workspace_members')
      .set({ role: row.role })
      .where('workspace_id', '=', row.workspaceId)
      .where('user_id', '=', row.userId)
      .execute();
  for (const row of plan.remove)
    await db.deleteFrom('workspace_members').where('workspace_id', '=', row.workspaceId).where('user_id', '=', row.userId).execute();
}

/** Hands the memberships a mapping granted over to the admins: SCIM no longer changes or removes them (keep_members=true). */
export async function releaseMemberships(db: Kysely<Database>, rows: { workspaceId: string; userId: string }[]): Promise<void> {
  for (const row of rows)
    await db
      .updateTable('workspace_members')
      .set({ scim_managed: 0 })
      .where('workspace_id', '=', row.workspaceId)
      .where('user_id', '=', row.userId)
      .execute();
}

import type { Kysely, Selectable } from 'kysely';
import { nameUuid } from '../../util/name-uuid.js';
import type { Database, MemberRole, WorkspaceMembersTable, WorkspaceRole } from '../schema.js';
import type { Workspace } from './workspaces.js';

/** A membership as the API shows it (whether SCIM granted it is SCIM's business). */
export type WorkspaceMember = Omit<Selectable<WorkspaceMembersTable>, 'scim_managed'>;

/** A member's role in a workspace when none is given: an organization's owner or admin administers it, as the reference assigns. */
export const workspaceRoleOf = (role: MemberRole): WorkspaceRole => (role === 'member' ? 'member' : 'admin');

/**
 * A page of a workspace's members, by when they joined. The default
 * workspace holds every member of the organization implicitly: its list is
 * the organization's, each membership with an id derived from the pair.
 */
export async function listWorkspaceMembers(
  db: Kysely<Database>,
  workspace: Workspace,
  page: { offset: number; limit: number },
): Promise<{ members: WorkspaceMember[]; total: number }> {
  if (workspace.is_default === 1) {
    const base = db.selectFrom('memberships').where('organization_id', '=', workspace.organization_id);
    const [rows, count] = await Promise.all([
      base
        .select(['user_id', 'role', 'created_at'])
        .orderBy('created_at')
        .orderBy('user_id')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const members = rows.map((row) => ({
      id: nameUuid(workspace.id, row.user_id),
      workspace_id: workspace.id,
      user_id: row.user_id,
      role: workspaceRoleOf(row.role),
      created_at: row.created_at,
    }));
    return { members, total: Number(count.n) };
  }
  const base = db.selectFrom('workspace_members').where('workspace_id', '=', workspace.id);
  const [members, count] = await Promise.all([
    base
      .select(['id', 'workspace_id', 'user_id', 'role', 'created_at'])
      .orderBy('created_at')
      .orderBy('user_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { members, total: Number(count.n) };
}

/** A member's role in a workspace (in the default one, the one their organization role gives), or undefined when not in it. */
export async function workspaceRole(db: Kysely<Database>, workspace: Workspace, userId: string): Promise<WorkspaceRole | undefined> {
  if (workspace.is_default === 1) {
    const role = (await organizationRoles(db, workspace.organization_id, [userId])).get(userId);
    return role && workspaceRoleOf(role);
  }
  const row = await db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspace.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** The organization roles of those of these users who are its members. */
export async function organizationRoles(db: Kysely<Database>, organizationId: string, userIds: readonly string[]) {
  const rows = await db
    .selectFrom('memberships')
    .select(['user_id', 'role'])
    .where('organization_id', '=', organizationId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.role]));
}

/** Adds members to a workspace, or changes the role of those already in it; the memberships as they now are. */
export async function addWorkspaceMembers(
  db: Kysely<Database>,
  workspaceId: string,
  members: readonly { userId: string; role: WorkspaceRole; id: string }[],
  now: string,
): Promise<WorkspaceMember[]> {
  return db.transaction().execute(async (tx) => {
    for (const member of members) {
      await tx
        .insertInto('workspace_members')
        .values({ id: member.id, workspace_id: workspaceId, user_id: member.userId, role: member.role, created_at: now })
        .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: member.role }))
        .execute();
    }
    return tx
      .selectFrom('workspace_members')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where(
        'user_id',
        'in',
        members.map((m) => m.userId),
      )
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
  });
}

/** Takes these users out of a workspace; how many were in it. */
export async function removeWorkspaceMembers(db: Kysely<Database>, workspaceId: string, userIds: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', userIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

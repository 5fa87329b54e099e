import type { Kysely, Selectable } from 'kysely';
import type { Database, ScimGroupsTable } from '../schema.js';

export type ScimGroupRow = Selectable<ScimGroupsTable>;

export interface StoredGroup {
  id: string;
  displayName: string;
  externalId: string | null;
  created: string;
  lastModified: string;
  members: { id: string; display: string }[];
}

export interface GroupQuery {
  displayName?: string[];
  externalId?: string[];
  id?: string[];
}

function groupsOf(db: Kysely<Database>, organizationId: string, query: GroupQuery) {
  let base = db.selectFrom('scim_groups').where('organization_id', '=', organizationId);
  for (const name of query.displayName ?? []) base = base.where('display_name', '=', name);
  for (const externalId of query.externalId ?? []) base = base.where('external_id', '=', externalId);
  for (const id of query.id ?? []) base = base.where('id', '=', id);
  return base;
}

/** A page of the organization's groups as stored, oldest first, and how many there are. */
export async function listScimGroupRows(
  db: Kysely<Database>,
  organizationId: string,
  query: GroupQuery,
  offset: number,
  count: number,
): Promise<{ rows: ScimGroupRow[]; total: number }> {
  const base = groupsOf(db, organizationId, query);
  const [rows, total] = await Promise.all([
    count === 0 ? [] : base.selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(count).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Groups as SCIM shows them, with their members (user id and userName) when asked. */
export async function listScimGroups(
  db: Kysely<Database>,
  organizationId: string,
  query: GroupQuery,
  page: { offset: number; count: number },
  withMembers: boolean,
): Promise<{ groups: StoredGroup[]; total: number }> {
  const { rows, total } = await listScimGroupRows(db, organizationId, query, page.offset, page.count);
  const members = new Map<string, StoredGroup['members']>();
  if (withMembers && rows.length > 0) {
    const found = await db
      .selectFrom('scim_group_members')
      .innerJoin('scim_users', (join) =>
        join
          .onRef('scim_users.user_id', '=', 'scim_group_members.user_id')
          .onRef('scim_users.organization_id', '=', 'scim_group_members.organization_id'),
      )
      .select(['scim_group_members.group_id', 'scim_users.user_id', 'scim_users.user_name'])
      .where(
        'scim_group_members.group_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('scim_users.user_name_key')
      .execute();
    for (const row of found) members.set(row.group_id, [...(members.get(row.group_id) ?? []), { id: row.user_id, display: row.user_name }]);
  }
  return {
    groups: rows.map((row) => ({
      id: row.id,
      displayName: row.display_name,
      externalId: row.external_id,
      created: row.created_at,
      lastModified: row.updated_at,
      members: members.get(row.id) ?? [],
    })),
    total,
  };
}

export async function findScimGroup(db: Kysely<Database>, organizationId: string, id: string): Promise<StoredGroup | undefined> {
  return (await listScimGroups(db, organizationId, { id: [id] }, { offset: 0, count: 1 }, true)).groups[0];
}

export async function groupMemberIds(db: Kysely<Database>, groupId: string): Promise<string[]> {
  return (await db.selectFrom('scim_group_members').select('user_id').where('group_id', '=', groupId).execute()).map((row) => row.user_id);
}

/**
 * Writes a group's name and members over what was there (creating it when new): the users who
 * joined or left it, whose workspace memberships must follow.
 */
export async function saveScimGroup(
  db: Kysely<Database>,
  organizationId: string,
  group: { id: string; displayName: string; externalId: string | null; members: string[] },
  now: string,
): Promise<{ changed: string[] }> {
  const row = { display_name: group.displayName, external_id: group.externalId, updated_at: now };
  await db
    .insertInto('scim_groups')
    .values({ id: group.id, organization_id: organizationId, created_at: now, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  const before = new Set(await groupMemberIds(db, group.id));
  const after = new Set(group.members);
  const joined = group.members.filter((id) => !before.has(id));
  const left = [...before].filter((id) => !after.has(id));
  if (joined.length > 0)
    await db
      .insertInto('scim_group_members')
      .values(joined.map((user_id) => ({ group_id: group.id, user_id, organization_id: organizationId })))
      // Identity providers send changes of one group concurrently: a member added twice is added once.
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .execute();
  if (left.length > 0) await db.deleteFrom('scim_group_members').where('group_id', '=', group.id).where('user_id', 'in', left).execute();
  return { changed: [...joined, ...left] };
}

/** Deletes a group with its members and mappings: the users who were in it. */
export async function deleteScimGroup(db: Kysely<Database>, organizationId: string, id: string): Promise<string[]> {
  const members = await groupMemberIds(db, id);
  await db.deleteFrom('scim_group_mappings').where('scim_group_id', '=', id).execute();
  await db.deleteFrom('scim_group_members').where('group_id', '=', id).execute();
  await db.deleteFrom('scim_groups').where('organization_id', '=', organizationId).where('id', '=', id).execute();
  return members;
}

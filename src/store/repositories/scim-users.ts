import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** What the gateway keeps of a SCIM User (RFC 7643 §4.1); other attributes are accepted and not kept. */
export interface UserAttributes {
  userName: string;
  externalId: string | null;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  /** The primary (else work, else first) e-mail address: the user's e-mail. */
  email: string | null;
  active: boolean;
}

export interface StoredUser extends UserAttributes {
  id: string;
  created: string;
  lastModified: string;
  groups: { id: string; displayName: string }[];
}

export interface UserQuery {
  userName?: string[];
  externalId?: string[];
  id?: string[];
}

const userColumns = [
  'scim_users.user_id as id',
  'scim_users.user_name as userName',
  'scim_users.external_id as externalId',
  'scim_users.display_name as displayName',
  'scim_users.active',
  'scim_users.created_at as created',
  'scim_users.updated_at as lastModified',
  'scim_users.given_name as givenName',
  'scim_users.family_name as familyName',
  'scim_users.email',
] as const;

function usersOf(db: Kysely<Database>, organizationId: string, query: UserQuery) {
  let base = db.selectFrom('scim_users').where('scim_users.organization_id', '=', organizationId);
  for (const name of query.userName ?? []) base = base.where('scim_users.user_name_key', '=', name.toLowerCase());
  for (const externalId of query.externalId ?? []) base = base.where('scim_users.external_id', '=', externalId);
  for (const id of query.id ?? []) base = base.where('scim_users.user_id', '=', id);
  return base;
}

/** The groups of these users, by user id. */
async function groupsOf(db: Kysely<Database>, organizationId: string, userIds: string[]): Promise<Map<string, StoredUser['groups']>> {
  const out = new Map<string, StoredUser['groups']>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('scim_group_members')
    .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
    .select(['scim_group_members.user_id', 'scim_groups.id', 'scim_groups.display_name'])
    .where('scim_group_members.organization_id', '=', organizationId)
    .where('scim_group_members.user_id', 'in', userIds)
    .orderBy('scim_groups.display_name')
    .execute();
  for (const row of rows) out.set(row.user_id, [...(out.get(row.user_id) ?? []), { id: row.id, displayName: row.display_name }]);
  return out;
}

export async function listScimUsers(
  db: Kysely<Database>,
  organizationId: string,
  query: UserQuery,
  offset: number,
  count: number,
): Promise<{ users: StoredUser[]; total: number }> {
  const base = usersOf(db, organizationId, query);
  const [rows, total] = await Promise.all([
    count === 0
      ? []
      : base.select(userColumns).orderBy('scim_users.created_at').orderBy('scim_users.user_id').offset(offset).limit(count).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const groups = await groupsOf(
    db,
    organizationId,
    rows.map((row) => row.id),
  );
  return {
    users: rows.map((row) => ({ ...row, active: row.active === 1, groups: groups.get(row.id) ?? [] })),
    total: Number(total.n),
  };
}

export async function findScimUser(db: Kysely<Database>, organizationId: string, userId: string): Promise<StoredUser | undefined> {
  return (await listScimUsers(db, organizationId, { id: [userId] }, 0, 1)).users[0];
}

/** The user whose e-mail this is, if any (users are shared by organizations). */
export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/** Who holds this userName in the organization (case-insensitive), or this user id, if anyone. */
export async function scimUserHolding(
  db: Kysely<Database>,
  organizationId: string,
  by: { userName: string } | { userId: string },
): Promise<string | undefined> {
  let query = db.selectFrom('scim_users').select('user_id').where('organization_id', '=', organizationId);
  query = 'userName' in by ? query.where('user_name_key', '=', by.userName.toLowerCase()) : query.where('user_id', '=', by.userId);
  return (await query.executeTakeFirst())?.user_id;
}

/** Creates the `users` row of a newly provisioned person. */
export async function insertUser(db: Kysely<Database>, id: string, user: UserAttributes, email: string, now: string): Promise<void> {
  await db
    .insertInto('users')
    .values({ id, email: email.trim().toLowerCase(), first_name: user.givenName, last_name: user.familyName, created_at: now })
    .execute();
}

/** Whether anything of another organization knows this user: a membership or another identity provider's record. */
async function knownElsewhere(db: Kysely<Database>, organizationId: string, userId: string): Promise<boolean> {
  const [membership, provisioned] = await Promise.all([
    db
      .selectFrom('memberships')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('organization_id', '<>', organizationId)
      .executeTakeFirst(),
    db
      .selectFrom('scim_users')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('organization_id', '<>', organizationId)
      .executeTakeFirst(),
  ]);
  return membership !== undefined || provisioned !== undefined;
}

/**
 * Writes a user's SCIM attributes over what was there. The shared `users` row (names, e-mail)
 * follows only while no other organization knows the user: one organization's identity provider
 * never renames a person for another.
 */
export async function saveScimUser(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  user: UserAttributes,
  now: string,
): Promise<void> {
  if (!(await knownElsewhere(db, organizationId, userId)))
    await db
      .updateTable('users')
      .set({
        first_name: user.givenName,
        last_name: user.familyName,
        ...(user.email !== null ? { email: user.email.trim().toLowerCase() } : {}),
      })
      .where('id', '=', userId)
      .execute();
  const row = {
    user_name: user.userName,
    user_name_key: user.userName.toLowerCase(),
    external_id: user.externalId,
    display_name: user.displayName,
    given_name: user.givenName,
    family_name: user.familyName,
    email: user.email === null ? null : user.email.trim().toLowerCase(),
    active: user.active ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('scim_users')
    .values({ organization_id: organizationId, user_id: userId, created_at: now, ...row })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet(row))
    .execute();
}

/** Forgets a provisioned user's SCIM record and group memberships (the `users` row stays: other organizations may know it). */
export async function deleteScimUser(db: Kysely<Database>, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('scim_group_members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  await db.deleteFrom('scim_users').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

/** Those of these ids that are users provisioned in the organization. */
export async function provisionedAmong(db: Kysely<Database>, organizationId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('scim_users')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

import type { Kysely } from 'kysely';
import type { Database, MemberRole } from '../schema.js';
import { deleteMemberConsoleSessions } from './console-sessions.js';

export interface Member {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: MemberRole;
}

export async function listMembers(
  db: Kysely<Database>,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ members: Member[]; total: number }> {
  const base = db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .where('memberships.organization_id', '=', organizationId);
  const [members, count] = await Promise.all([
    base
      .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'memberships.role'])
      .orderBy('memberships.created_at')
      .orderBy('users.id')
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { members, total: Number(count.n) };
}

export async function isMember(db: Kysely<Database>, organizationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewMember {
  email: string;
  role: MemberRole;
  first_name?: string | null;
  last_name?: string | null;
}

/**
 * Adds a person to an organization, creating the user on first sight of the
 * e-mail address. Adding an existing member again updates the role and names.
 */
export async function addMember(
  db: Kysely<Database>,
  organizationId: string,
  member: NewMember,
  newUserId: () => string,
  now: string,
): Promise<Member> {
  return db.transaction().execute(async (trx) => {
    const email = member.email.trim().toLowerCase();
    let user = await trx.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    if (!user) {
      user = {
        id: newUserId(),
        email,
        first_name: member.first_name ?? null,
        last_name: member.last_name ?? null,
        created_at: now,
      };
      await trx.insertInto('users').values(user).execute();
    } else if (member.first_name !== undefined || member.last_name !== undefined) {
      const names = {
        first_name: member.first_name === undefined ? user.first_name : member.first_name,
        last_name: member.last_name === undefined ? user.last_name : member.last_name,
      };
      await trx.updateTable('users').set(names).where('id', '=', user.id).execute();
      user = { ...user, ...names };
    }
    await trx
      .insertInto('memberships')
      .values({ organization_id: organizationId, user_id: user.id, role: member.role, created_at: now })
      .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ role: member.role }))
      .execute();
    return { id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name, role: member.role };
  });
}

/** Removes a person from an organization (and its workspaces) by e-mail; the user id removed, or undefined when not a member. */
export async function removeMember(db: Kysely<Database>, organizationId: string, email: string): Promise<string | undefined> {
  const user = await db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (!user) return undefined;
  const removed = await db.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom('memberships')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    // Out of the organization is out of each of its workspaces.
    await tx
      .deleteFrom('workspace_members')
      .where('user_id', '=', user.id)
      .where('workspace_id', 'in', tx.selectFrom('workspaces').select('id').where('organization_id', '=', organizationId))
      .execute();
    // The console sessions of the member's keys end with the membership; the keys themselves stay (until reassigned).
    if (result.numDeletedRows > 0n) await deleteMemberConsoleSessions(tx, organizationId, user.id);
    return result.numDeletedRows > 0n;
  });
  return removed ? user.id : undefined;
}

/** One member of an organization, by user id or e-mail address; undefined when there is no such member. */
export async function findMember(
  db: Kysely<Database>,
  organizationId: string,
  by: { userId: string } | { email: string },
): Promise<Member | undefined> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'memberships.role'])
    .where('memberships.organization_id', '=', organizationId)
    .where((eb) => ('userId' in by ? eb('memberships.user_id', '=', by.userId) : eb('users.email', '=', by.email.trim().toLowerCase())))
    .executeTakeFirst();
}

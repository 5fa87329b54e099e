import type { Kysely } from 'kysely';
import { Errors } from '../http/errors.js';
import {
  ensureOrganizationMember,
  grantInputs,
  releaseMemberships,
  revokeOrganizationAccess,
  writeMemberships,
} from '../store/repositories/scim-access.js';
import { deleteScimGroup, findScimGroup, saveScimGroup } from '../store/repositories/scim-groups.js';
import {
  deleteScimUser,
  findScimUser,
  findUserByEmail,
  insertUser,
  provisionedAmong,
  saveScimUser,
  scimUserHolding,
  type UserAttributes,
} from '../store/repositories/scim-users.js';
import type { Database } from '../store/schema.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import type { Clock } from '../util/clock.js';
import { newUserId, newUuid } from '../util/ids.js';
import type { GroupAttributes } from './group-attributes.js';
import { scimInvalid } from './values.js';
import { grantedMemberships, planMemberships } from './workspace-grants.js';

/** What changed once a provisioning step committed: every instance must drop what it remembers of them. */
export interface AccessChange {
  organizationId: string;
  /** Users whose organization or workspace memberships may have changed. */
  users: string[];
  /** Management keys disabled. */
  keys: string[];
}

export interface ProvisioningDeps {
  db: Kysely<Database>;
  clock: Clock;
  announce(change: AccessChange): Promise<void>;
}

/**
 * Provisioning by SCIM: users become organization members (or stop being, at once, when
 * deactivated or deleted), groups' mappings put their members in workspaces. Each step is one
 * transaction; its change notices go out after it commits.
 */
async function step<T>(
  deps: ProvisioningDeps,
  organizationId: string,
  work: (trx: Kysely<Database>, now: string, change: AccessChange) => Promise<T>,
): Promise<T> {
  const change: AccessChange = { organizationId, users: [], keys: [] };
  let result: T;
  try {
    result = await deps.db.transaction().execute((trx) => work(trx, deps.clock().toISOString(), change));
  } catch (error) {
    // Two identical requests at once: both passed the checks, the second write met the first's row.
    if (isUniqueViolation(error))
      throw Errors.scimConflict('Another request created the same resource at the same moment; read it, then retry');
    throw error;
  }
  if (change.users.length > 0 || change.keys.length > 0) await deps.announce(change);
  return result;
}

/**
 * Brings these users' workspace memberships to what the group mappings grant. With `release`
 * (a mapping deleted with keep_members), what would go is handed over to the admins instead.
 */
async function syncWorkspaces(
  trx: Kysely<Database>,
  organizationId: string,
  userIds: string[],
  now: string,
  release = false,
): Promise<void> {
  const inputs = await grantInputs(trx, organizationId, userIds);
  const plan = planMemberships(grantedMemberships(inputs.mappings, inputs.members, inputs.active), inputs.current);
  await writeMemberships(trx, release ? { ...plan, remove: [] } : plan, newUuid, now);
  if (release) await releaseMemberships(trx, plan.remove);
}

/** Grants or takes away the organization as the user's `active` says. */
async function applyActive(trx: Kysely<Database>, change: AccessChange, userId: string, active: boolean, now: string): Promise<void> {
  if (active) await ensureOrganizationMember(trx, change.organizationId, userId, now);
  else change.keys.push(...(await revokeOrganizationAccess(trx, change.organizationId, userId, now)));
  await syncWorkspaces(trx, change.organizationId, [userId], now);
  change.users.push(userId);
}

const userNameTaken = (userName: string) => Errors.scimConflict(`userName ${userName} is already provisioned in this organization`);
const emailTaken = (email: string) => Errors.scimConflict(`The e-mail ${email} belongs to another user`);

/** Provisions a user: an existing person with this e-mail is linked, anyone else is created. Their id. */
export function createUser(deps: ProvisioningDeps, organizationId: string, user: UserAttributes): Promise<string> {
  return step(deps, organizationId, async (trx, now, change) => {
    if (await scimUserHolding(trx, organizationId, { userName: user.userName })) throw userNameTaken(user.userName);
    const email = user.email ?? user.userName;
    const existing = await findUserByEmail(trx, email);
    if (existing && (await scimUserHolding(trx, organizationId, { userId: existing.id }))) throw emailTaken(email);
    const id = existing?.id ?? newUserId();
    if (!existing) await insertUser(trx, id, user, email, now);
    await saveScimUser(trx, organizationId, id, user, now);
    await applyActive(trx, change, id, user.active, now);
    return id;
  });
}

/** Replaces a user's attributes (PUT, or PATCH once applied); deactivating takes their access away at once. */
export function updateUser(
  deps: ProvisioningDeps,
  organizationId: string,
  userId: string,
  next: (current: UserAttributes) => UserAttributes,
): Promise<void> {
  return step(deps, organizationId, async (trx, now, change) => {
    const current = await findScimUser(trx, organizationId, userId);
    if (!current) throw Errors.notFound('User');
    const user = next(current);
    const holder = await scimUserHolding(trx, organizationId, { userName: user.userName });
    if (holder !== undefined && holder !== userId) throw userNameTaken(user.userName);
    if (user.email !== null && user.email.toLowerCase() !== current.email?.toLowerCase()) {
      const other = await findUserByEmail(trx, user.email);
      if (other && other.id !== userId) throw emailTaken(user.email);
    }
    await saveScimUser(trx, organizationId, userId, user, now);
    await applyActive(trx, change, userId, user.active, now);
  });
}

/** Deprovisions a user for good: access taken away as for deactivation, and their SCIM record forgotten. */
export function deleteUser(deps: ProvisioningDeps, organizationId: string, userId: string): Promise<void> {
  return step(deps, organizationId, async (trx, now, change) => {
    if (!(await scimUserHolding(trx, organizationId, { userId }))) throw Errors.notFound('User');
    change.keys.push(...(await revokeOrganizationAccess(trx, organizationId, userId, now)));
    await deleteScimUser(trx, organizationId, userId);
    change.users.push(userId);
  });
}

async function checkMembers(trx: Kysely<Database>, organizationId: string, members: string[]): Promise<void> {
  const known = await provisionedAmong(trx, organizationId, members);
  const unknown = members.find((id) => !known.has(id));
  if (unknown !== undefined) throw scimInvalid('invalidValue', `members: ${unknown} is not a user provisioned in this organization`);
}

/** Creates a group (with its members, if any). Its id. */
export function createGroup(deps: ProvisioningDeps, organizationId: string, group: GroupAttributes): Promise<string> {
  return step(deps, organizationId, async (trx, now, change) => {
    await checkMembers(trx, organizationId, group.members);
    const id = newUuid();
    const { changed } = await saveScimGroup(trx, organizationId, { id, ...group }, now);
    await syncWorkspaces(trx, organizationId, changed, now);
    change.users.push(...changed);
    return id;
  });
}

/** Replaces a group's name and members (PUT, or PATCH once applied); who joined or left gains or loses its workspaces. */
export function updateGroup(
  deps: ProvisioningDeps,
  organizationId: string,
  groupId: string,
  next: (current: GroupAttributes) => GroupAttributes,
): Promise<void> {
  return step(deps, organizationId, async (trx, now, change) => {
    const current = await findScimGroup(trx, organizationId, groupId);
    if (!current) throw Errors.notFound('Group');
    const group = next({ displayName: current.displayName, externalId: current.externalId, members: current.members.map((m) => m.id) });
    await checkMembers(trx, organizationId, group.members);
    const { changed } = await saveScimGroup(trx, organizationId, { id: groupId, ...group }, now);
    await syncWorkspaces(trx, organizationId, changed, now);
    change.users.push(...changed);
  });
}

/** Deletes a group and its mappings: its members lose the workspaces it granted. */
export function deleteGroup(deps: ProvisioningDeps, organizationId: string, groupId: string): Promise<void> {
  return step(deps, organizationId, async (trx, now, change) => {
    if (!(await findScimGroup(trx, organizationId, groupId))) throw Errors.notFound('Group');
    const members = await deleteScimGroup(trx, organizationId, groupId);
    await syncWorkspaces(trx, organizationId, members, now);
    change.users.push(...members);
  });
}

/** Runs a change of group mappings, then brings the group's members' workspaces in line (see syncWorkspaces for `release`). */
export function remapGroup<T>(
  deps: ProvisioningDeps,
  organizationId: string,
  work: (trx: Kysely<Database>, now: string) => Promise<{ result: T; groupId: string; release?: boolean }>,
): Promise<T> {
  return step(deps, organizationId, async (trx, now, change) => {
    const { result, groupId, release } = await work(trx, now);
    const group = await findScimGroup(trx, organizationId, groupId);
    const members = group?.members.map((m) => m.id) ?? [];
    await syncWorkspaces(trx, organizationId, members, now, release);
    change.users.push(...members);
    return result;
  });
}

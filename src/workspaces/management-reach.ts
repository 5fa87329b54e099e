import { Errors } from '../http/errors.js';
import type { Reach } from '../store/reach.js';
import type { UsageFilter } from '../store/repositories/usage-hourly.js';
import type { MemberRole, WorkspaceRole } from '../store/schema.js';

interface ScopedKey {
  organization_id: string;
  workspace_id: string;
  management_scope: 'workspace' | null;
}

/**
 * The management reach of a key (store/reach.ts): its workspace when scoped
 * (a workspace admin's key), else its organization; every management route
 * narrows what it reads and changes by it, so that a scoped key finds another
 * workspace's rows as absent as missing ones.
 */
export function managementReach(key: ScopedKey): Reach {
  return { organizationId: key.organization_id, workspaceId: key.management_scope === 'workspace' ? key.workspace_id : null };
}

/**
 * What a key reaches of the workspace resources any key may use (presets,
 * interns, the vault): a management key its management reach, any other key
 * its own workspace, so that an inference key never names, runs or spends
 * through another workspace's.
 */
export function keyReach(key: ScopedKey & { is_management: number }): Reach {
  return key.is_management === 1 ? managementReach(key) : { organizationId: key.organization_id, workspaceId: key.workspace_id };
}

/** The same for a query of the usage rollups (store/repositories/usage-hourly.ts). */
export const reachFilters = (reach: Reach): UsageFilter[] =>
  reach.workspaceId === null ? [] : [{ column: 'workspace_id', values: [reach.workspaceId], exclude: false }];

/** A row of the organization the reach reaches, or undefined: what a route answers 404 for. */
export function inReach<R extends { workspace_id: string }>(reach: Reach, row: R | undefined): R | undefined {
  return row && reachesWorkspace(reach, row.workspace_id) ? row : undefined;
}

/** Whether the reach holds this workspace (of its organization). */
export const reachesWorkspace = (reach: Reach, workspaceId: string): boolean =>
  reach.workspaceId === null || reach.workspaceId === workspaceId;

/**
 * The workspace a list or a creation names (`workspace_id`), checked against
 * the reach: a scoped key gets its own when it names none, and 404 for
 * another (the same whether it exists or not, so nothing leaks).
 */
export function workspaceInReach(reach: Reach, requested: string | undefined): string | undefined {
  if (reach.workspaceId === null || requested === undefined) return requested ?? reach.workspaceId ?? undefined;
  if (requested !== reach.workspaceId) throw Errors.notFound(`Workspace ${requested}`);
  return requested;
}

/** Refuses a scoped key an operation of the organization's (its settings, members, workspaces, credit grants). */
export function requireOrganizationReach(reach: Reach, what: string): void {
  if (reach.workspaceId !== null) throw Errors.organizationKeyRequired(what);
}

/** What keyInReach reads of a key. */
interface KeyScope {
  workspace_id: string;
  is_management: number;
  management_scope: 'workspace' | null;
}

/**
 * A key the reach reaches (as keyReachClause in store/reach.ts selects them:
 * a scoped key never reaches an organization's management key), or undefined. */
export function keyInReach<K extends KeyScope>(reach: Reach, key: K | undefined): K | undefined {
  const hidden = reach.workspaceId !== null && key?.is_management === 1 && key.management_scope === null;
  return hidden ? undefined : inReach(reach, key);
}

/** Who a new management key is made for: their role in the organization and in the key's workspace (none when not in it). */
export interface KeyCreator {
  userId: string;
  organizationRole: MemberRole;
  workspaceRole: WorkspaceRole | undefined;
}

/**
 * The scope of a new management key. One made for no one (the operator's) or
 * for an owner or admin of the organization reaches the organization, unless
 * asked to reach only its workspace; one made for anyone else reaches its
 * workspace, and only if they administer it.
 */
export function newManagementScope(workspaceScope: boolean, creator: KeyCreator | undefined): 'workspace' | null {
  if (creator?.organizationRole !== 'member') return workspaceScope ? 'workspace' : null;
  if (creator.workspaceRole !== 'admin')
    throw Errors.invalidRequest(
      `creator_user_id ${creator.userId} is not an admin of the key's workspace: only an organization owner or admin, or the workspace's admin, can hold a management key`,
    );
  return 'workspace';
}

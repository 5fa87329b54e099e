import { type Expression, type SqlBool, sql } from 'kysely';

/**
 * What a management key manages: its organization, and in it either every
 * workspace (`workspaceId` null: a key of an organization owner or admin) or
 * one (a key with `management_scope` 'workspace', a workspace admin's); see
 * workspaces/management-reach.ts. Repositories narrow their queries by it.
 */
export interface Reach {
  organizationId: string;
  workspaceId: string | null;
}

/** All of an organization: what the command line, run by the operator, reaches. */
export const organizationReach = (organizationId: string): Reach => ({ organizationId, workspaceId: null });

/**
 * The where-clause of a reach, for a query whose rows carry a workspace column
 * (the query still names the organization, as every repository does):
 * `.where(reachClause(reach))`. An organization's reach adds nothing.
 */
export function reachClause(reach: Reach, column = 'workspace_id'): Expression<SqlBool> {
  return reach.workspaceId === null ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.ref(column)} = ${reach.workspaceId}`;
}

/**
 * The where-clause of a reach on `api_keys`: a scoped key never reaches an
 * organization-wide management key, even one in its workspace, since it could
 * then disable the keys that manage it.
 */
export function keyReachClause(reach: Reach): Expression<SqlBool> {
  return reach.workspaceId === null
    ? reachClause(reach)
    : sql<SqlBool>`${reachClause(reach)} and (is_management = 0 or management_scope is not null)`;
}

import type { Kysely, Selectable, Updateable } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database, WorkspacesTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';
import { deleteKeysConsoleSessions } from './console-sessions.js';
import { countWorkspaceInterns, type RemovedContents, removeWorkspaceContents } from './workspace-contents.js';

export type Workspace = Selectable<WorkspacesTable>;

/** The fields a create or an update sets (the rest keep their defaults, or what they were). */
export type WorkspaceFields = Omit<
  Updateable<WorkspacesTable>,
  'id' | 'organization_id' | 'is_default' | 'created_at' | 'created_by' | 'deleted_at'
>;

export function findDefaultWorkspace(db: Kysely<Database>, organizationId: string): Promise<Workspace | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

/**
 * A workspace of this organization named by its id or its slug (the id wins: a
 * slug never has a UUID's shape). Another organization's workspace, and a
 * deleted one unless asked for, are as absent as a missing one.
 */
export function findWorkspace(
  db: Kysely<Database>,
  organizationId: string,
  idOrSlug: string,
  options: { includeDeleted?: boolean } = {},
): Promise<Workspace | undefined> {
  let query = db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]));
  if (!options.includeDeleted) query = query.where('deleted_at', 'is', null);
  return query.orderBy((eb) => eb.case().when('id', '=', idOrSlug).then(0).else(1).end()).executeTakeFirst();
}

/** Any workspace by id, deleted or not: what the request path caches (workspaces/workspace-cache.ts). */
export function findWorkspaceById(db: Kysely<Database>, id: string): Promise<Workspace | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A page of the live workspaces in reach, the default first, then by creation. */
export async function listWorkspaces(
  db: Kysely<Database>,
  reach: Reach,
  page: { offset: number; limit: number },
): Promise<{ rows: Workspace[]; total: number }> {
  const live = db
    .selectFrom('workspaces')
    .where('organization_id', '=', reach.organizationId)
    .where('deleted_at', 'is', null)
    .where(reachClause(reach, 'id'));
  const [rows, count] = await Promise.all([
    live.selectAll().orderBy('is_default', 'desc').orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export interface NewWorkspace extends WorkspaceFields {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  created_by: string | null;
  created_at: string;
}

/** Creates a workspace; undefined when the organization already has one with this slug. */
export async function createWorkspace(db: Kysely<Database>, workspace: NewWorkspace): Promise<Workspace | undefined> {
  const inserted = await db
    .insertInto('workspaces')
    .values({ ...workspace, is_default: 0, updated_at: null, deleted_at: null })
    .onConflict((oc) => oc.columns(['organization_id', 'slug']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted && findWorkspaceById(db, inserted.id);
}

/** Changes a live workspace: the changed row, undefined when there is none, 'slug-taken' when another has the slug. */
export async function updateWorkspace(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  fields: WorkspaceFields,
): Promise<Workspace | undefined | 'slug-taken'> {
  try {
    const result = await db
      .updateTable('workspaces')
      .set(fields)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return undefined;
  } catch (error) {
    if (isUniqueViolation(error)) return 'slug-taken';
    throw error;
  }
  return findWorkspaceById(db, id);
}

/** A key counts as active while it is enabled and not expired. */
export function activeKeyHashes(db: Kysely<Database>, workspaceId: string, now: string, creatorUserIds?: readonly string[]) {
  let query = db
    .selectFrom('api_keys')
    .select(['hash', 'creator_user_id'])
    .where('workspace_id', '=', workspaceId)
    .where('disabled', '=', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (creatorUserIds) query = query.where('creator_user_id', 'in', creatorUserIds);
  return query.execute();
}

export type DeleteOutcome =
  | ({ deleted: true; disabledKeys: string[] } & RemovedContents)
  | { deleted: false; refused: 'active-keys' | 'interns'; count: number };

/**
 * Soft-deletes a workspace with no active keys and no interns, in one
 * transaction: its row stays (the ledger's ids name it) under a slug freed for
 * reuse, its keys are disabled for good, its budgets, members, guardrails and
 * the guardrail assignments naming it are deleted, and what else it held goes
 * (removeWorkspaceContents).
 */
export async function deleteWorkspace(db: Kysely<Database>, workspace: Workspace, now: string): Promise<DeleteOutcome> {
  return db.transaction().execute(async (tx) => {
    const active = await activeKeyHashes(tx, workspace.id, now);
    if (active.length > 0) return { deleted: false, refused: 'active-keys', count: active.length };
    const interns = await countWorkspaceInterns(tx, workspace.id);
    if (interns > 0) return { deleted: false, refused: 'interns', count: interns };
    // A deleted slug cannot take a live one's place: a live slug has no '~'.
    await tx
      .updateTable('workspaces')
      .set({ deleted_at: now, updated_at: now, slug: `${workspace.slug}~deleted~${workspace.id}` })
      .where('id', '=', workspace.id)
      .execute();
    // Its keys' console sessions go with them (none may come back: the keys stay disabled).
    const disabled = await tx
      .updateTable('api_keys')
      .set({ disabled: 1, updated_at: now })
      .where('workspace_id', '=', workspace.id)
      .where('disabled', '=', 0)
      .returning('hash')
      .execute();
    await deleteKeysConsoleSessions(
      tx,
      disabled.map((row) => row.hash),
    );
    await tx.deleteFrom('workspace_budgets').where('workspace_id', '=', workspace.id).execute();
    await tx.deleteFrom('workspace_members').where('workspace_id', '=', workspace.id).execute();
    // SCIM group mappings to it would grant nothing now, yet still be listed.
    await tx.deleteFrom('scim_group_mappings').where('workspace_id', '=', workspace.id).execute();
    const guardrails = tx.selectFrom('guardrails').select('id').where('workspace_id', '=', workspace.id);
    await tx
      .deleteFrom('guardrail_assignments')
      .where('organization_id', '=', workspace.organization_id)
      .where((eb) =>
        eb.or([eb('guardrail_id', 'in', guardrails), eb.and([eb('scope', '=', 'workspace'), eb('target_id', '=', workspace.id)])]),
      )
      .execute();
    await tx.deleteFrom('guardrails').where('workspace_id', '=', workspace.id).execute();
    const contents = await removeWorkspaceContents(tx, workspace.id, now);
    return { deleted: true, disabledKeys: disabled.map((row) => row.hash), ...contents };
  });
}

import type { Kysely, Selectable } from 'kysely';
import { newUuid } from '../../util/ids.js';
import { keyReachClause, type Reach, reachClause } from '../reach.js';
import type { Database, GuardrailAssignmentsTable, GuardrailScope, GuardrailsTable, LimitReset } from '../schema.js';
import type { Page } from './presets.js';

export type GuardrailRow = Selectable<GuardrailsTable>;
export type GuardrailAssignmentRow = Selectable<GuardrailAssignmentsTable>;

export interface GuardrailFields {
  workspace_id: string;
  name: string;
  description: string | null;
  /** JSON of the rules. */
  rules: string;
  limit_usd: number | null;
  reset_interval: LimitReset | null;
  include_byok_in_budgets: number;
}

async function counted<T>(rows: Promise<T[]>, total: Promise<{ total: number | string }>): Promise<{ rows: T[]; total: number }> {
  const [r, t] = await Promise.all([rows, total]);
  return { rows: r, total: Number(t.total) };
}

/** A guardrail of this organization; another organization's is as absent as a missing one. */
export function findGuardrail(db: Kysely<Database>, reach: Reach, id: string): Promise<GuardrailRow | undefined> {
  return db
    .selectFrom('guardrails')
    .selectAll()
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The guardrails of one workspace, oldest first. */
export function listGuardrails(db: Kysely<Database>, organizationId: string, workspaceId: string, page: Page) {
  const base = db.selectFrom('guardrails').where('organization_id', '=', organizationId).where('workspace_id', '=', workspaceId);
  return counted(
    base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  );
}

export async function insertGuardrail(
  db: Kysely<Database>,
  organizationId: string,
  fields: GuardrailFields,
  now: string,
): Promise<GuardrailRow> {
  const row: GuardrailRow = { id: newUuid(), organization_id: organizationId, ...fields, created_at: now, updated_at: null };
  await db.insertInto('guardrails').values(row).execute();
  return row;
}

export async function updateGuardrail(
  db: Kysely<Database>,
  row: GuardrailRow,
  fields: GuardrailFields,
  now: string,
): Promise<GuardrailRow> {
  await db
    .updateTable('guardrails')
    .set({ ...fields, updated_at: now })
    .where('id', '=', row.id)
    .execute();
  return { ...row, ...fields, updated_at: now };
}

export async function deleteGuardrail(db: Kysely<Database>, id: string): Promise<void> {
  // Explicit rather than relying on ON DELETE CASCADE being enabled on every engine.
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('guardrail_assignments').where('guardrail_id', '=', id).execute();
    await tx.deleteFrom('guardrails').where('id', '=', id).execute();
  });
}

export interface Assignment {
  organizationId: string;
  guardrailId: string;
  scope: GuardrailScope;
  assignedBy: string | null;
}

/**
 * Assigns a guardrail to targets of one scope; assigning again keeps the
 * first assignment. With `exclusive`, a target holds one guardrail of the
 * scope, so its other assignments go (the reference: "a key may hold at most
 * one guardrail; assigning replaces any existing assignment").
 */
export async function assignGuardrail(
  db: Kysely<Database>,
  assignment: Assignment,
  targets: readonly string[],
  options: { exclusive: boolean; now: string },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (options.exclusive) {
      await tx
        .deleteFrom('guardrail_assignments')
        .where('organization_id', '=', assignment.organizationId)
        .where('scope', '=', assignment.scope)
        .where('target_id', 'in', targets)
        .where('guardrail_id', '!=', assignment.guardrailId)
        .execute();
    }
    await tx
      .insertInto('guardrail_assignments')
      .values(
        targets.map((target) => ({
          id: newUuid(),
          organization_id: assignment.organizationId,
          guardrail_id: assignment.guardrailId,
          scope: assignment.scope,
          target_id: target,
          assigned_by: assignment.assignedBy,
          created_at: options.now,
        })),
      )
      .onConflict((oc) => oc.columns(['guardrail_id', 'scope', 'target_id']).doNothing())
      .execute();
  });
}

/** Removes a guardrail from targets of one scope; returns how many assignments went. */
export async function unassignGuardrail(
  db: Kysely<Database>,
  guardrailId: string,
  scope: GuardrailScope,
  targets: readonly string[],
): Promise<number> {
  const result = await db
    .deleteFrom('guardrail_assignments')
    .where('guardrail_id', '=', guardrailId)
    .where('scope', '=', scope)
    .where('target_id', 'in', targets)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The assignments of one scope in the organization (of one guardrail when given), oldest first. */
export function listAssignments(db: Kysely<Database>, filter: { reach: Reach; scope: GuardrailScope; guardrailId?: string }, page: Page) {
  const { organizationId } = filter.reach;
  const guardrailsInReach = db
    .selectFrom('guardrails')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where(reachClause(filter.reach));
  let base = db
    .selectFrom('guardrail_assignments')
    .where('organization_id', '=', organizationId)
    .where('scope', '=', filter.scope)
    .where('guardrail_id', 'in', guardrailsInReach);
  if (filter.guardrailId !== undefined) base = base.where('guardrail_id', '=', filter.guardrailId);
  return counted(
    base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  );
}

/** Everything the organization's guardrail cache holds: its guardrails and every assignment. */
export async function loadOrganizationGuardrails(db: Kysely<Database>, organizationId: string) {
  const [guardrails, assignments] = await Promise.all([
    db
      .selectFrom('guardrails')
      .select(['id', 'name', 'rules', 'limit_usd', 'reset_interval', 'include_byok_in_budgets'])
      .where('organization_id', '=', organizationId)
      .execute(),
    db
      .selectFrom('guardrail_assignments')
      .select(['guardrail_id', 'scope', 'target_id'])
      .where('organization_id', '=', organizationId)
      .execute(),
  ]);
  return { guardrails, assignments };
}

/** Which of these ids name a target of the scope in the organization (keys, members, workspaces). */
export async function existingTargets(
  db: Kysely<Database>,
  reach: Reach,
  scope: GuardrailScope,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { organizationId } = reach;
  const rows =
    scope === 'api-key'
      ? await db
          .selectFrom('api_keys')
          .select('hash as id')
          .where('organization_id', '=', organizationId)
          .where(keyReachClause(reach))
          .where('hash', 'in', ids)
          .execute()
      : scope === 'member'
        ? await db
            .selectFrom('memberships')
            .select('user_id as id')
            .where('organization_id', '=', organizationId)
            .where('user_id', 'in', ids)
            .execute()
        : await db
            .selectFrom('workspaces')
            .select('id')
            .where('organization_id', '=', organizationId)
            .where(reachClause(reach, 'id'))
            .where('id', 'in', ids)
            .execute();
  return new Set(rows.map((r) => r.id));
}

/** Names and labels of keys, for the reference's KeyAssignment. */
export async function keyNames(db: Kysely<Database>, organizationId: string, hashes: readonly string[]) {
  if (hashes.length === 0) return new Map<string, { name: string; label: string }>();
  const rows = await db
    .selectFrom('api_keys')
    .select(['hash', 'name', 'label'])
    .where('organization_id', '=', organizationId)
    .where('hash', 'in', hashes)
    .execute();
  return new Map(rows.map((r) => [r.hash, { name: r.name, label: r.label }]));
}

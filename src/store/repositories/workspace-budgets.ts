import type { Kysely, Selectable } from 'kysely';
import { newUuid } from '../../util/ids.js';
import type { BudgetInterval, Database, WorkspaceBudgetsTable, WorkspaceUsageTable } from '../schema.js';

export type WorkspaceBudgetRow = Selectable<WorkspaceBudgetsTable>;
export type WorkspaceUsageRow = Selectable<WorkspaceUsageTable>;

export function listWorkspaceBudgets(db: Kysely<Database>, workspaceId: string): Promise<WorkspaceBudgetRow[]> {
  return db.selectFrom('workspace_budgets').selectAll().where('workspace_id', '=', workspaceId).execute();
}

/** Every budget of the organization's workspaces that are not deleted, with each workspace's BYOK setting: what the budget cache holds. */
export function organizationWorkspaceBudgets(
  db: Kysely<Database>,
  organizationId: string,
): Promise<(Pick<WorkspaceBudgetRow, 'workspace_id' | 'reset_interval' | 'limit_usd'> & { include_byok_in_budgets: number })[]> {
  return db
    .selectFrom('workspace_budgets')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_budgets.workspace_id')
    .select([
      'workspace_budgets.workspace_id',
      'workspace_budgets.reset_interval',
      'workspace_budgets.limit_usd',
      'workspaces.include_byok_in_budgets',
    ])
    .where('workspaces.organization_id', '=', organizationId)
    .where('workspaces.deleted_at', 'is', null)
    .execute();
}

export interface BudgetChange {
  workspaceId: string;
  interval: BudgetInterval;
  limitUsd: number;
  /** The workspace-wide BYOK setting; unchanged when absent. */
  includeByok?: boolean;
  now: string;
  /** Checks the budgets as they would stand (every interval's, the changed one included) and throws to change nothing. */
  check: (budgets: readonly Pick<WorkspaceBudgetRow, 'reset_interval' | 'limit_usd'>[]) => void;
}

/**
 * Creates or replaces the workspace's budget for one interval, and sets its
 * BYOK setting, in one transaction: the check sees the other intervals as
 * they are when the change is made.
 */
export function upsertWorkspaceBudget(db: Kysely<Database>, change: BudgetChange): Promise<WorkspaceBudgetRow> {
  return db.transaction().execute(async (trx) => {
    const budgets = await listWorkspaceBudgets(trx, change.workspaceId);
    const current = budgets.find((budget) => budget.reset_interval === change.interval);
    change.check([...budgets.filter((budget) => budget !== current), { reset_interval: change.interval, limit_usd: change.limitUsd }]);
    const row: WorkspaceBudgetRow = current
      ? { ...current, limit_usd: change.limitUsd, updated_at: change.now }
      : {
          id: newUuid(),
          workspace_id: change.workspaceId,
          reset_interval: change.interval,
          limit_usd: change.limitUsd,
          created_at: change.now,
          updated_at: change.now,
        };
    if (current)
      await trx
        .updateTable('workspace_budgets')
        .set({ limit_usd: row.limit_usd, updated_at: row.updated_at })
        .where('id', '=', row.id)
        .execute();
    else await trx.insertInto('workspace_budgets').values(row).execute();
    if (change.includeByok !== undefined)
      await trx
        .updateTable('workspaces')
        .set({ include_byok_in_budgets: Number(change.includeByok) })
        .where('id', '=', change.workspaceId)
        .execute();
    return row;
  });
}

/** Deletes the workspace's budget for one interval; whether there was one. */
export async function deleteWorkspaceBudget(db: Kysely<Database>, workspaceId: string, interval: BudgetInterval): Promise<boolean> {
  const result = await db
    .deleteFrom('workspace_budgets')
    .where('workspace_id', '=', workspaceId)
    .where('reset_interval', '=', interval)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What the workspace spent (migration 0034), or undefined before its first charge. */
export function findWorkspaceUsage(db: Kysely<Database>, workspaceId: string): Promise<WorkspaceUsageRow | undefined> {
  return db.selectFrom('workspace_usage').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** The hashes of the workspace's keys: whose unwritten spend and running video jobs its budgets count. */
export async function workspaceKeyHashes(db: Kysely<Database>, workspaceId: string): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('hash').where('workspace_id', '=', workspaceId).execute();
  return rows.map((row) => row.hash);
}

import type { Kysely } from 'kysely';
import { budgetOrderViolation } from '../../accounting/workspace-budget-rules.js';
import { Errors } from '../../http/errors.js';
import { findWorkspaceUsage, upsertWorkspaceBudget } from '../../store/repositories/workspace-budgets.js';
import type { BudgetInterval, Database } from '../../store/schema.js';
import { toBudgetRecord } from './budget-record.js';

/**
 * PUT /workspaces/{id}/budgets/{interval}'s work, for the route and the
 * command line alike: the budget set (refused with 400 naming both intervals
 * when a narrower one would not stay below a wider one), and the reference's
 * answer. The caller tells the instances (WORKSPACE_BUDGETS_TOPIC).
 */
export async function setWorkspaceBudget(
  db: Kysely<Database>,
  workspace: { id: string; includeByok: boolean },
  interval: BudgetInterval,
  body: { limit_usd: number; include_byok_in_budgets?: boolean | undefined },
  now: Date,
) {
  const budget = await upsertWorkspaceBudget(db, {
    workspaceId: workspace.id,
    interval,
    limitUsd: body.limit_usd,
    ...(body.include_byok_in_budgets !== undefined ? { includeByok: body.include_byok_in_budgets } : {}),
    now: now.toISOString(),
    check: (budgets) => {
      const violation = budgetOrderViolation(budgets);
      if (!violation) return;
      const [narrower, wider] = violation;
      throw Errors.invalidRequest(
        `limit_usd: the ${narrower.interval} budget ($${narrower.limitUsd}) must be less than the ${wider.interval} budget ($${wider.limitUsd}); budgets strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)`,
      );
    },
  });
  const includeByok = body.include_byok_in_budgets ?? workspace.includeByok;
  return {
    data: toBudgetRecord(budget, await findWorkspaceUsage(db, workspace.id), includeByok, now),
    include_byok_in_budgets: includeByok,
  };
}

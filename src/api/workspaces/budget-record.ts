import { budgetWindow } from '../../accounting/workspace-budget-rules.js';
import { type CurrentUsage, currentUsage, limitRemaining, spentInWindow, windowEndsAt } from '../../accounts/usage-periods.js';
import type { WorkspaceBudgetRow, WorkspaceUsageRow } from '../../store/repositories/workspace-budgets.js';

const NO_USAGE: CurrentUsage = {
  usage: 0,
  usage_daily: 0,
  usage_weekly: 0,
  usage_monthly: 0,
  byok_usage: 0,
  byok_usage_daily: 0,
  byok_usage_weekly: 0,
  byok_usage_monthly: 0,
};

/**
 * The reference's WorkspaceBudget (a lifetime budget's reset_interval is
 * null there), and beyond it what the workspace spent in the budget's current
 * period (`usage`), what is left of it (`remaining`, below zero when spent
 * past it) and when the period ends (`resets_at`, null for lifetime).
 */
export function toBudgetRecord(row: WorkspaceBudgetRow, usage: WorkspaceUsageRow | undefined, includeByok: boolean, now: Date) {
  const window = budgetWindow(row.reset_interval);
  const current = usage ? currentUsage(usage, now) : NO_USAGE;
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    limit_usd: row.limit_usd,
    reset_interval: window,
    created_at: row.created_at,
    updated_at: row.updated_at,
    usage: spentInWindow(window, includeByok, current),
    remaining: limitRemaining(row.limit_usd, window, includeByok, current),
    resets_at: windowEndsAt(window, now)?.toISOString() ?? null,
  };
}

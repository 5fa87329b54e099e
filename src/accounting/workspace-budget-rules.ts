import type { BudgetInterval, LimitReset } from '../store/schema.js';

/** The intervals a workspace budget may have, narrowest first: a narrower one's limit must be lower than every wider one's. */
export const BUDGET_INTERVALS: readonly BudgetInterval[] = ['daily', 'weekly', 'monthly', 'lifetime'];

/** One workspace's budgets as enforced: each interval's limit, and whether BYOK spend counts (one setting for them all). */
export interface WorkspaceBudgets {
  workspaceId: string;
  includeByok: boolean;
  /** Narrowest first. */
  budgets: readonly { interval: BudgetInterval; limitUsd: number }[];
}

/** The spend window of an interval: a lifetime budget counts all the workspace ever spent. */
export const budgetWindow = (interval: BudgetInterval): LimitReset | null => (interval === 'lifetime' ? null : interval);

/**
 * The first pair of budgets out of order, narrower then wider, when a
 * narrower interval's limit is not strictly below a wider one's (the
 * reference: lifetime > monthly > weekly > daily); intervals without a
 * budget are skipped.
 */
export function budgetOrderViolation(
  budgets: readonly { reset_interval: BudgetInterval; limit_usd: number }[],
): [{ interval: BudgetInterval; limitUsd: number }, { interval: BudgetInterval; limitUsd: number }] | undefined {
  const sorted = BUDGET_INTERVALS.flatMap((interval) =>
    budgets.filter((b) => b.reset_interval === interval).map((b) => ({ interval, limitUsd: b.limit_usd })),
  );
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++) if (sorted[i]!.limitUsd >= sorted[j]!.limitUsd) return [sorted[i]!, sorted[j]!];
  return undefined;
}

import { type UsagePeriods, usagePeriodsAt } from '../accounts/usage-periods.js';
import type { BudgetCheck, MemberSpendScope } from '../guardrails/guardrail-budget.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { BudgetInterval, LimitReset } from '../store/schema.js';
import { budgetWindow, type WorkspaceBudgets } from './workspace-budget-rules.js';

/**
 * Whose spend an account counts: one key's, every key a member created (in
 * one workspace, or the whole organization), one workspace's (every charge
 * made there, its deleted keys' too), or the whole organization's (against
 * its credits).
 */
export type SpendScope =
  | { keyHash: string }
  | { organizationId: string; member: MemberSpendScope }
  | { workspaceId: string }
  | { organizationId: string; credits: true };

/**
 * A spend counted over one window: what limits are checked against and what
 * reservations are held on. Its id names the scope, the window and the
 * window's current period, so that every limit over the same spend shares one
 * account and a new day (week, month) starts a new one.
 */
export interface SpendAccount {
  id: string;
  scope: SpendScope;
  window: LimitReset | null;
  includeByok: boolean;
}

/** Whether the account of this id (or a store key ending in it) counts BYOK usage, as spendLimits names it: for a settlement by hold id, which knows only ids. */
export const countsByok = (accountId: string): boolean => accountId.endsWith('|byok');

/**
 * One limit a request of the key must fit under: the key's own (none of
 * `budget`, `workspaceBudget`, `credits`), a guardrail's budget, a budget of
 * the key's workspace, or its organization's credits.
 */
export interface SpendLimit {
  account: SpendAccount;
  limitUsd: number;
  budget?: BudgetCheck;
  workspaceBudget?: { workspaceId: string; interval: BudgetInterval };
  credits?: true;
}

type KeyLimitFields = Pick<ApiKeyRow, 'hash' | 'organization_id' | 'limit_usd' | 'limit_reset' | 'include_byok_in_limit'>;

/**
 * The limits a request of this key must fit under, in the order they are
 * checked (and named when one refuses): the guardrail budgets in their layer
 * order, then the key's own limit, then its workspace's budgets (narrowest
 * first), then its organization's credits (all it was granted, against all
 * it spent) when it was granted any. A key with none of these has none, and
 * costs nothing more.
 */
export function spendLimits(
  key: KeyLimitFields,
  checks: readonly BudgetCheck[],
  now: Date,
  creditsUsd: number | null = null,
  workspace: WorkspaceBudgets | null = null,
): SpendLimit[] {
  if (checks.length === 0 && key.limit_usd === null && creditsUsd === null && workspace === null) return [];
  let periods: UsagePeriods | undefined;
  const account = (scope: SpendScope, window: LimitReset | null, includeByok: boolean): SpendAccount => {
    const period = window ? (periods ??= usagePeriodsAt(now))[window] : 'all';
    const whose =
      'keyHash' in scope
        ? `key:${scope.keyHash}`
        : 'member' in scope
          ? `member:${scope.organizationId}:${scope.member.userId}:${scope.member.workspaceId ?? '*'}`
          : 'workspaceId' in scope
            ? `workspace:${scope.workspaceId}`
            : `organization:${scope.organizationId}`;
    return { id: `${whose}|${window ?? 'total'}:${period}|${includeByok ? 'byok' : 'paid'}`, scope, window, includeByok };
  };
  const limits: SpendLimit[] = checks.map((budget) => ({
    account: account(
      budget.member ? { organizationId: key.organization_id, member: budget.member } : { keyHash: key.hash },
      budget.budget.resetInterval,
      budget.budget.includeByok,
    ),
    limitUsd: budget.budget.limitUsd,
    budget,
  }));
  if (key.limit_usd !== null)
    limits.push({ account: account({ keyHash: key.hash }, key.limit_reset, key.include_byok_in_limit === 1), limitUsd: key.limit_usd });
  if (workspace) {
    const { workspaceId, includeByok } = workspace;
    for (const { interval, limitUsd } of workspace.budgets)
      limits.push({
        account: account({ workspaceId }, budgetWindow(interval), includeByok),
        limitUsd,
        workspaceBudget: { workspaceId, interval },
      });
  }
  if (creditsUsd !== null)
    limits.push({
      account: account({ organizationId: key.organization_id, credits: true }, null, false),
      limitUsd: creditsUsd,
      credits: true,
    });
  return limits;
}

/** The distinct accounts of a set of limits (two limits over the same spend hold once). */
export function accountsOf(limits: readonly SpendLimit[]): SpendAccount[] {
  const seen = new Map<string, SpendAccount>();
  for (const { account } of limits) if (!seen.has(account.id)) seen.set(account.id, account);
  return [...seen.values()];
}

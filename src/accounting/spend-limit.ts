import { windowEndsAt } from '../accounts/usage-periods.js';
import { Errors } from '../http/errors.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import { budgetMetadata, budgetSpent } from './guardrail-budgets.js';
import type { CostCeiling } from './reservation-ceiling.js';
import type { SpendLimit } from './reservation-limits.js';
import type { Shortfall } from './reservation-store.js';

/**
 * Why a request's reservation was refused. A spent limit answers as before
 * any reservation existed: 402 for the key's own limit (and the
 * organization's credits, and a workspace budget), 403 for a guardrail's budget. A limit with money left, but less than the request can cost once
 * the requests in flight are counted, is a 402 saying what would fit: as
 * OpenRouter does, the completion tokens it affords for a chat; the amount
 * left otherwise. The metadata names the limit and both amounts.
 */
export function spendRefusal({ limit, committed, available }: Shortfall, ceiling: CostCeiling, now: Date): GatewayError {
  const { account, limitUsd, budget, workspaceBudget, credits } = limit;
  if (committed >= limitUsd) {
    if (credits) return Errors.creditsSpent({ limit: 'credits', total_credits: limitUsd, total_usage: committed }, committed, limitUsd);
    if (workspaceBudget)
      return Errors.workspaceBudgetSpent(
        {
          ...workspaceBudgetMetadata(workspaceBudget),
          limit_usd: limitUsd,
          usage: committed,
          resets_at: windowEndsAt(account.window, now)?.toISOString() ?? null,
        },
        workspaceBudget.interval,
        limitUsd,
        committed,
      );
    return budget ? budgetSpent(budget, committed, now) : Errors.spendLimitReached(limitUsd, account.window);
  }
  const which = budget
    ? { limit: 'guardrail_budget', ...budgetMetadata(budget) }
    : workspaceBudget
      ? workspaceBudgetMetadata(workspaceBudget)
      : { limit: credits ? 'credits' : 'api_key' };
  const metadata = { ...which, required_usd: ceiling.usd, available_usd: available };
  if (ceiling.tokens) return Errors.tokensUnaffordable(metadata, ceiling.tokens.requested, ceiling.tokens.affordable(available));
  return Errors.spendLimitTooLow(metadata, ceiling.usd, available, limitName(limit));
}

/** Names a workspace budget in a refusal: which limit, whose and its interval. */
const workspaceBudgetMetadata = ({ workspaceId, interval }: NonNullable<SpendLimit['workspaceBudget']>) => ({
  limit: 'workspace_budget',
  workspace_id: workspaceId,
  interval,
});

const limitName = ({ budget, workspaceBudget, credits }: SpendLimit) =>
  budget
    ? `the budget of guardrail ${budget.guardrail.guardrail.name}`
    : workspaceBudget
      ? `the workspace's ${workspaceBudget.interval} budget`
      : credits
        ? "the organization's credits"
        : "the API key's spending limit";

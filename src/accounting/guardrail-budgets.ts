import { windowEndsAt } from '../accounts/usage-periods.js';
import type { BudgetCheck } from '../guardrails/guardrail-budget.js';
import { Errors } from '../http/errors.js';
import type { GatewayError } from '../protocol/gateway-error.js';

const WINDOW_NAMES = { daily: 'per day', weekly: 'per week', monthly: 'per month' } as const;

/** Who a budget refusal names: the guardrail, its scope and the budget layer that refused. */
export function budgetMetadata({ guardrail, layer }: BudgetCheck) {
  return { guardrail_id: guardrail.guardrail.id, guardrail_scope: guardrail.scope, budget_scope: layer };
}

/**
 * 403 for a guardrail budget that is spent (the reference's refusal): what
 * its key, or the member's keys, spent in the budget's window, and when the
 * window ends.
 */
export function budgetSpent(check: BudgetCheck, spent: number, now: Date): GatewayError {
  const { budget, guardrail } = check;
  const window = budget.resetInterval ? WINDOW_NAMES[budget.resetInterval] : 'in total';
  const whose = check.member ? "the member's keys" : 'this key';
  return Errors.guardrailBlocked(
    {
      ...budgetMetadata(check),
      limit_usd: budget.limitUsd,
      spend_usd: spent,
      reset_interval: budget.resetInterval,
      resets_at: windowEndsAt(budget.resetInterval, now)?.toISOString() ?? null,
    },
    guardrail.guardrail.name,
    `its budget of $${budget.limitUsd} ${window} is spent by ${whose} ($${spent.toFixed(6)})`,
  );
}

import type { Kysely } from 'kysely';
import { currentUsage, spentInWindow, windowEndsAt, type CurrentUsage } from '../accounts/usage-periods.js';
import { budgetChecks, type BudgetCheck, type MemberSpendScope } from '../guardrails/guardrail-budget.js';
import type { GuardrailCache } from '../guardrails/guardrail-cache.js';
import { Errors } from '../http/errors.js';
import { findApiKeyByHash, memberKeys, type ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Database } from '../store/schema.js';

const WINDOW_NAMES = { daily: 'per day', weekly: 'per week', monthly: 'per month' } as const;

/**
 * Refuses with 403 before any upstream call when a budget of a guardrail that
 * governs the key is spent: the key's own spend, or the aggregate of every key
 * its creator made, in the guardrail's window. Only keys under a guardrail
 * with a limit read the database; their counters are read fresh, so
 * concurrent requests overspend by at most what is in flight (as key limits).
 */
export async function assertWithinGuardrailBudgets(db: Kysely<Database>, guardrails: GuardrailCache, key: ApiKeyRow, now: Date): Promise<void> {
  const checks = budgetChecks((await guardrails.get(key.organization_id)).forKey(key), key);
  if (checks.length === 0) return;
  const usageOf = memoizedUsage(db, key, now);
  for (const check of checks) {
    const spent = (await usageOf(check.member)).reduce((sum, usage) => sum + spentInWindow(check.budget.resetInterval, check.budget.includeByok, usage), 0);
    if (spent >= check.budget.limitUsd) throw budgetSpent(check, spent, now);
  }
}

/** Each spend a request's checks count, read once: the key's, and a member's per workspace filter. */
function memoizedUsage(db: Kysely<Database>, key: ApiKeyRow, now: Date) {
  const reads = new Map<string, Promise<CurrentUsage[]>>();
  return (member: MemberSpendScope | undefined): Promise<CurrentUsage[]> => {
    const id = member ? `${member.userId}/${member.workspaceId ?? ''}` : '';
    let read = reads.get(id);
    if (!read) {
      read = member
        ? memberKeys(db, key.organization_id, member.userId, member.workspaceId).then((rows) => rows.map((row) => currentUsage(row, now)))
        : findApiKeyByHash(db, key.hash).then((row) => [currentUsage(row ?? key, now)]);
      reads.set(id, read);
    }
    return read;
  };
}

function budgetSpent(check: BudgetCheck, spent: number, now: Date) {
  const { budget, guardrail, layer } = check;
  const window = budget.resetInterval ? WINDOW_NAMES[budget.resetInterval] : 'in total';
  const whose = check.member ? "the member's keys" : 'this key';
  return Errors.guardrailBlocked(
    {
      guardrail_id: guardrail.guardrail.id,
      guardrail_scope: guardrail.scope,
      budget_scope: layer,
      limit_usd: budget.limitUsd,
      spend_usd: spent,
      reset_interval: budget.resetInterval,
      resets_at: windowEndsAt(budget.resetInterval, now)?.toISOString() ?? null,
    },
    guardrail.guardrail.name,
    `its budget of $${budget.limitUsd} ${window} is spent by ${whose} ($${spent.toFixed(6)})`,
  );
}

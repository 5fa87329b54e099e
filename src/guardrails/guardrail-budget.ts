import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { LimitReset } from '../store/schema.js';
import type { ApplicableGuardrail, GuardrailBudget } from './compiled-guardrail.js';

/** The stored budget columns of a guardrail; no budget without a limit. */
export function guardrailBudget(row: {
  limit_usd: number | null;
  reset_interval: LimitReset | null;
  include_byok_in_budgets: number;
}): GuardrailBudget | null {
  if (row.limit_usd === null) return null;
  return { limitUsd: row.limit_usd, resetInterval: row.reset_interval, includeByok: row.include_byok_in_budgets === 1 };
}

/**
 * The budget layers of the reference's KeyBudget, in the order it checks
 * them: a workspace-wide (here also organization-wide) guardrail against the
 * member's aggregate spend and against the key, a member guardrail against the
 * member's aggregate, a key guardrail against the key.
 */
export type BudgetLayer = 'workspace_default_member' | 'workspace_default_key' | 'member' | 'api_key';

const LAYER_ORDER: readonly BudgetLayer[] = ['workspace_default_member', 'workspace_default_key', 'member', 'api_key'];

/** What a member layer counts: the member's keys in one workspace, or in the whole organization (null). */
export interface MemberSpendScope {
  userId: string;
  workspaceId: string | null;
}

export interface BudgetCheck {
  guardrail: ApplicableGuardrail;
  budget: GuardrailBudget;
  layer: BudgetLayer;
  /** Whose spend the layer counts: the member's keys, or the key alone when absent. */
  member?: MemberSpendScope;
}

/**
 * The budget checks a request of this key must pass, in enforcement order. A
 * key with no creator (made by the command line for the organization) has no
 * member aggregate: only its own spend is counted.
 */
export function budgetChecks(
  applicable: readonly ApplicableGuardrail[],
  key: Pick<ApiKeyRow, 'creator_user_id' | 'workspace_id'>,
): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  const creator = key.creator_user_id;
  for (const guardrail of applicable) {
    const budget = guardrail.guardrail.budget;
    if (!budget) continue;
    switch (guardrail.scope) {
      case 'api-key':
        checks.push({ guardrail, budget, layer: 'api_key' });
        break;
      case 'member':
        if (creator !== null) checks.push({ guardrail, budget, layer: 'member', member: { userId: creator, workspaceId: null } });
        break;
      case 'workspace':
      case 'organization': {
        const workspaceId = guardrail.scope === 'workspace' ? key.workspace_id : null;
        if (creator !== null)
          checks.push({ guardrail, budget, layer: 'workspace_default_member', member: { userId: creator, workspaceId } });
        checks.push({ guardrail, budget, layer: 'workspace_default_key' });
        break;
      }
    }
  }
  return checks.sort((a, b) => LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer));
}

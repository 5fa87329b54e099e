import { describe, expect, it } from 'vitest';
import type { GuardrailScope } from '../store/schema.js';
import { compileGuardrail } from './compile-guardrail.js';
import type { ApplicableGuardrail, GuardrailBudget } from './compiled-guardrail.js';
import { budgetChecks, guardrailBudget } from './guardrail-budget.js';
import { applyRuleInput } from './guardrail-rules.js';

const DAILY: GuardrailBudget = { limitUsd: 5, resetInterval: 'daily', includeByok: false };
const applicable = (id: string, scope: GuardrailScope, budget: GuardrailBudget | null = DAILY): ApplicableGuardrail => ({
  guardrail: { ...compileGuardrail(id, id, applyRuleInput(undefined, {})), budget },
  scope,
});
const key = { creator_user_id: 'u1', workspace_id: 'w1' };
const layers = (checks: ReturnType<typeof budgetChecks>) => checks.map((c) => [c.guardrail.guardrail.id, c.layer, c.member ?? null]);

describe('guardrailBudget', () => {
  it('is a limit with its window and BYOK flag, or none without a limit', () => {
    expect(guardrailBudget({ limit_usd: 50, reset_interval: 'monthly', include_byok_in_budgets: 1 })).toEqual({
      limitUsd: 50,
      resetInterval: 'monthly',
      includeByok: true,
    });
    expect(guardrailBudget({ limit_usd: 50, reset_interval: null, include_byok_in_budgets: 0 })).toEqual({
      limitUsd: 50,
      resetInterval: null,
      includeByok: false,
    });
    expect(guardrailBudget({ limit_usd: null, reset_interval: 'daily', include_byok_in_budgets: 0 })).toBeNull();
  });
});

describe('budgetChecks', () => {
  it('checks in the reference order: workspace default (member, then key), member, key', () => {
    const checks = budgetChecks([applicable('k', 'api-key'), applicable('m', 'member'), applicable('w', 'workspace')], key);
    expect(layers(checks)).toEqual([
      ['w', 'workspace_default_member', { userId: 'u1', workspaceId: 'w1' }],
      ['w', 'workspace_default_key', null],
      ['m', 'member', { userId: 'u1', workspaceId: null }],
      ['k', 'api_key', null],
    ]);
  });

  it('counts an organization-wide guardrail against the member across every workspace', () => {
    expect(layers(budgetChecks([applicable('o', 'organization')], key))).toEqual([
      ['o', 'workspace_default_member', { userId: 'u1', workspaceId: null }],
      ['o', 'workspace_default_key', null],
    ]);
  });

  it('skips guardrails without a budget', () => {
    expect(budgetChecks([applicable('k', 'api-key', null), applicable('w', 'workspace', null)], key)).toEqual([]);
  });

  it('has no member aggregate for a key without a creator', () => {
    const orgKey = { creator_user_id: null, workspace_id: 'w1' };
    expect(layers(budgetChecks([applicable('m', 'member'), applicable('w', 'workspace')], orgKey))).toEqual([
      ['w', 'workspace_default_key', null],
    ]);
  });
});

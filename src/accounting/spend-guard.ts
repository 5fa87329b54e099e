import type { Kysely } from 'kysely';
import type { GuardrailCache } from '../guardrails/guardrail-cache.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Database } from '../store/schema.js';
import { assertWithinGuardrailBudgets } from './guardrail-budgets.js';
import { assertWithinSpendLimit } from './spend-limit.js';

/** Refuses a request the key may not spend on: 403 past a guardrail's budget, 402 past the key's own limit. */
export type AssertCanSpend = (key: ApiKeyRow, now: Date, expectedCost?: number) => Promise<void>;

/** Guardrail budgets first, then the key's limit: the order the reference's KeyBudget layers are checked in. */
export function spendGuard(db: Kysely<Database>, guardrails: GuardrailCache): AssertCanSpend {
  return async (key, now, expectedCost = 0) => {
    await assertWithinGuardrailBudgets(db, guardrails, key, now);
    await assertWithinSpendLimit(db, key, now, expectedCost);
  };
}

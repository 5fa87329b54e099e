import { describe, expect, it } from 'vitest';
import type { BudgetCheck } from '../guardrails/guardrail-budget.js';
import { accountsOf, spendLimits } from './reservation-limits.js';

const now = new Date('2026-11-26T12:00:00.000Z'); // a Thursday
const key = { hash: 'k1', organization_id: 'o1', limit_usd: null, limit_reset: null, include_byok_in_limit: 0 };
const check = (
  fields: Partial<BudgetCheck> & Pick<BudgetCheck, 'layer'>,
  limitUsd = 5,
  resetInterval: 'daily' | null = 'daily',
): BudgetCheck =>
  ({
    guardrail: { guardrail: { id: 'g1', name: 'G' }, scope: 'api-key' },
    budget: { limitUsd, resetInterval, includeByok: false },
    ...fields,
  }) as BudgetCheck;

describe('spendLimits', () => {
  it('has nothing to check for a key with no limit and no budget', () => {
    expect(spendLimits(key, [], now)).toEqual([]);
  });

  it("names an account by whose spend, which window and the window's current period", () => {
    const [limit] = spendLimits({ ...key, limit_usd: 2, limit_reset: 'weekly' }, [], now);
    expect(limit).toMatchObject({
      limitUsd: 2,
      account: { id: 'key:k1|weekly:2026-11-23|paid', window: 'weekly', scope: { keyHash: 'k1' } },
    });
    expect(spendLimits({ ...key, limit_usd: 2 }, [], now)[0]!.account.id).toBe('key:k1|total:all|paid');
  });

  it("checks the budgets first, then the key's own limit; a member budget counts the member's keys", () => {
    const limits = spendLimits(
      { ...key, limit_usd: 2 },
      [check({ layer: 'member', member: { userId: 'u1', workspaceId: null } }), check({ layer: 'api_key' })],
      now,
    );
    expect(limits.map((l) => l.account.id)).toEqual([
      'member:o1:u1:*|daily:2026-11-26|paid',
      'key:k1|daily:2026-11-26|paid',
      'key:k1|total:all|paid',
    ]);
    expect(limits.map((l) => l.budget?.layer)).toEqual(['member', 'api_key', undefined]);
  });

  it('holds once on an account two limits share', () => {
    const limits = spendLimits({ ...key, limit_usd: 2, limit_reset: 'daily' }, [check({ layer: 'api_key' })], now);
    expect(limits).toHaveLength(2);
    expect(accountsOf(limits).map((a) => a.id)).toEqual(['key:k1|daily:2026-11-26|paid']);
  });

  it("checks the organization's credits last, over all it spent, once it was granted any", () => {
    expect(spendLimits(key, [], now, null)).toEqual([]);
    const limits = spendLimits({ ...key, limit_usd: 2 }, [], now, 50);
    expect(limits.map((l) => [l.account.id, l.limitUsd, l.credits])).toEqual([
      ['key:k1|total:all|paid', 2, undefined],
      ['organization:o1|total:all|paid', 50, true],
    ]);
    expect(spendLimits(key, [], now, 0)[0]!.account.scope).toEqual({ organizationId: 'o1', credits: true });
  });
});

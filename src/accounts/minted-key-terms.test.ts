import { describe, expect, it } from 'vitest';
import type { LimitReset } from '../store/schema.js';
import { type KeyTerms, mintedKeyTerms, mintingRefusal } from './minted-key-terms.js';

const now = new Date('2026-11-21T12:00:00Z');

/** A creating key: no limit, no expiry, nothing spent, unless told. */
const creator = (
  over: {
    limit_usd?: number | null;
    limit_reset?: LimitReset | null;
    usage?: number;
    usage_daily?: number;
    expires_at?: string | null;
    disabled?: number;
  } = {},
) => ({
  disabled: 0,
  expires_at: null,
  limit_usd: null,
  limit_reset: null,
  include_byok_in_limit: 0,
  usage: 0,
  usage_daily: 0,
  usage_daily_period: '2026-11-21',
  usage_weekly: 0,
  usage_weekly_period: '2026-11-16',
  usage_monthly: 0,
  usage_monthly_period: '2026-11',
  byok_usage: 0,
  byok_usage_daily: 0,
  byok_usage_weekly: 0,
  byok_usage_monthly: 0,
  ...over,
});

const asked = (over: Partial<KeyTerms> = {}): KeyTerms => ({ limit: null, limitReset: null, expiresAt: null, ...over });

describe('mintingRefusal', () => {
  it('lets a live key with limit left mint', () => {
    expect(mintingRefusal(creator(), now)).toBeUndefined();
    expect(mintingRefusal(creator({ limit_usd: 1, usage: 0.5 }), now)).toBeUndefined();
  });

  it.each([
    ['disabled', creator({ disabled: 1 }), 'is disabled'],
    ['expired', creator({ expires_at: '2026-11-21T12:00:00.000Z' }), 'has expired'],
    ['spent', creator({ limit_usd: 0.000001, usage: 0.000001 }), 'has spent its limit'],
    ['overspent', creator({ limit_usd: 1, usage: 3 }), 'has spent its limit'],
    ['spent today', creator({ limit_usd: 1, limit_reset: 'daily', usage: 9, usage_daily: 1 }), 'has spent its limit'],
  ])('refuses a %s key', (_, key, why) => {
    expect(mintingRefusal(key, now)).toBe(why);
  });
});

describe('mintedKeyTerms', () => {
  it('gives what was asked when the creator has no limit and no expiry', () => {
    const terms = asked({ limit: 1000, limitReset: 'daily', expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(mintedKeyTerms(creator(), terms, now)).toEqual({ terms });
    expect(mintedKeyTerms(creator(), asked(), now)).toEqual({ terms: asked() });
  });

  it('gives what is left of the creator’s limit, and its expiry, when none was asked', () => {
    const key = creator({ limit_usd: 1, usage: 0.25, expires_at: '2026-11-21T13:00:00.000Z' });
    expect(mintedKeyTerms(key, asked(), now)).toEqual({ terms: asked({ limit: 0.75, expiresAt: '2026-11-21T13:00:00.000Z' }) });
  });

  it('accepts a limit up to what is left, and an earlier expiry', () => {
    const key = creator({ limit_usd: 1, usage: 0.25, expires_at: '2026-11-21T13:00:00.000Z' });
    const terms = asked({ limit: 0.75, expiresAt: '2026-11-21T12:30:00.000Z' });
    expect(mintedKeyTerms(key, terms, now)).toEqual({ terms });
  });

  it('refuses a limit above what is left, naming limit', () => {
    expect(mintedKeyTerms(creator({ limit_usd: 1 }), asked({ limit: 1000 }), now)).toEqual({
      field: 'limit',
      problem: 'must be at most 1, what is left of the limit of the key creating it',
    });
    expect(mintedKeyTerms(creator({ limit_usd: 1, usage: 0.25 }), asked({ limit: 0.76 }), now)).toMatchObject({ field: 'limit' });
  });

  it('refuses an expiry after the creator’s, naming expires_at', () => {
    expect(
      mintedKeyTerms(creator({ expires_at: '2026-11-21T13:00:00.000Z' }), asked({ expiresAt: '2030-01-01T00:00:00.000Z' }), now),
    ).toEqual({
      field: 'expires_at',
      problem: 'must be no later than 2026-11-21T13:00:00.000Z, when the key creating it expires',
    });
  });

  it.each([
    [null, 'daily'],
    [null, 'monthly'],
    ['weekly', 'daily'],
    ['monthly', 'weekly'],
  ] as const)('refuses a limit that refills faster than the creator’s (%s) with usage_limit_type %s', (creatorReset, reset) => {
    expect(mintedKeyTerms(creator({ limit_usd: 10, limit_reset: creatorReset }), asked({ limit: 1, limitReset: reset }), now)).toEqual({
      field: 'usage_limit_type',
      problem: `must not reset more often than the limit of the key creating it (${creatorReset ?? 'never'})`,
    });
  });

  it.each([
    ['daily', 'daily'],
    ['daily', 'monthly'],
    ['daily', null],
    ['weekly', 'monthly'],
  ] as const)('accepts a limit that refills no faster than the creator’s (%s) with usage_limit_type %s', (creatorReset, reset) => {
    const terms = asked({ limit: 1, limitReset: reset });
    expect(mintedKeyTerms(creator({ limit_usd: 10, limit_reset: creatorReset }), terms, now)).toEqual({ terms });
  });
});

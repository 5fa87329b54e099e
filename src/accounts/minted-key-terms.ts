import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { LimitReset } from '../store/schema.js';
import { currentUsage, limitRemaining, type UsageCounters } from './usage-periods.js';

/** What a key is allowed: its limit (USD, null for none), how often the limit resets, and its expiry. */
export interface KeyTerms {
  limit: number | null;
  limitReset: LimitReset | null;
  expiresAt: string | null;
}

type Creator = Pick<ApiKeyRow, 'disabled' | 'expires_at' | 'limit_usd' | 'limit_reset' | 'include_byok_in_limit'> & UsageCounters;

const remainingOf = (creator: Creator, now: Date) =>
  limitRemaining(creator.limit_usd, creator.limit_reset, creator.include_byok_in_limit === 1, currentUsage(creator, now));

/** Why `creator` may not mint a key at `now`, as "<subject> …" reads; undefined when it may. */
export function mintingRefusal(creator: Creator, now: Date): string | undefined {
  if (creator.disabled) return 'is disabled';
  if (creator.expires_at !== null && Date.parse(creator.expires_at) <= now.getTime()) return 'has expired';
  const remaining = remainingOf(creator, now);
  if (remaining !== null && remaining <= 0) return 'has spent its limit';
  return undefined;
}

/** Days a limit's window lasts; a limit that never resets lasts for ever. */
const WINDOW_DAYS: Record<LimitReset, number> = { daily: 1, weekly: 7, monthly: 28 };
const windowDays = (reset: LimitReset | null) => (reset === null ? Infinity : WINDOW_DAYS[reset]);

/** A requested term that asks for more than the creator has: the request's field and the rule. */
export interface TermProblem {
  field: 'limit' | 'usage_limit_type' | 'expires_at';
  problem: string;
}

/**
 * The terms of the key that `creator` mints (the PKCE flow), from what was
 * requested (a null term was not asked for). A minted key is never more than
 * the key that asked: with a creator's limit, its limit is at most what is
 * left of that limit (all of it when none was asked) and it does not refill
 * faster than the creator's does; its expiry is no later than the creator's
 * (the creator's when none was asked). Asking for more is a problem, not a
 * cap: the caller refuses it, naming the field.
 */
export function mintedKeyTerms(creator: Creator, requested: KeyTerms, now: Date): { terms: KeyTerms } | TermProblem {
  const remaining = remainingOf(creator, now);
  if (remaining !== null && requested.limit !== null && requested.limit > remaining) {
    return { field: 'limit', problem: `must be at most ${remaining}, what is left of the limit of the key creating it` };
  }
  if (remaining !== null && windowDays(requested.limitReset) < windowDays(creator.limit_reset)) {
    return {
      field: 'usage_limit_type',
      problem: `must not reset more often than the limit of the key creating it (${creator.limit_reset ?? 'never'})`,
    };
  }
  const creatorExpiry = creator.expires_at === null ? null : Date.parse(creator.expires_at);
  if (creatorExpiry !== null && requested.expiresAt !== null && Date.parse(requested.expiresAt) > creatorExpiry) {
    return { field: 'expires_at', problem: `must be no later than ${creator.expires_at}, when the key creating it expires` };
  }
  return {
    terms: {
      limit: requested.limit ?? remaining,
      limitReset: requested.limitReset,
      expiresAt: requested.expiresAt ?? creator.expires_at,
    },
  };
}

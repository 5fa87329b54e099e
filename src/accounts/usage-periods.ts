import type { LimitReset } from '../store/schema.js';
import { roundUsd } from '../util/round-usd.js';

/**
 * The UTC period a spend counter belongs to. A counter whose stored period is
 * not the current one counts as zero, so resets need no scheduled job.
 * Weeks run Monday through Sunday; a weekly period is named by its Monday.
 */
export interface UsagePeriods {
  daily: string;
  weekly: string;
  monthly: string;
}

export function usagePeriodsAt(now: Date): UsagePeriods {
  const day = now.toISOString().slice(0, 10);
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysSinceMonday));
  return { daily: day, weekly: monday.toISOString().slice(0, 10), monthly: day.slice(0, 7) };
}

export interface UsageCounters {
  usage: number;
  usage_daily: number;
  usage_daily_period: string;
  usage_weekly: number;
  usage_weekly_period: string;
  usage_monthly: number;
  usage_monthly_period: string;
  byok_usage: number;
  byok_usage_daily: number;
  byok_usage_weekly: number;
  byok_usage_monthly: number;
}

export interface CurrentUsage {
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  byok_usage: number;
  byok_usage_daily: number;
  byok_usage_weekly: number;
  byok_usage_monthly: number;
}

/** The counters as they stand at `now`: a counter of an earlier period reads as zero. */
export function currentUsage(c: UsageCounters, now: Date): CurrentUsage {
  const p = usagePeriodsAt(now);
  const daily = c.usage_daily_period === p.daily;
  const weekly = c.usage_weekly_period === p.weekly;
  const monthly = c.usage_monthly_period === p.monthly;
  // The counters are sums of charges: rounded as each charge is, so float noise does not show.
  return {
    usage: roundUsd(c.usage),
    usage_daily: daily ? roundUsd(c.usage_daily) : 0,
    usage_weekly: weekly ? roundUsd(c.usage_weekly) : 0,
    usage_monthly: monthly ? roundUsd(c.usage_monthly) : 0,
    byok_usage: roundUsd(c.byok_usage),
    byok_usage_daily: daily ? roundUsd(c.byok_usage_daily) : 0,
    byok_usage_weekly: weekly ? roundUsd(c.byok_usage_weekly) : 0,
    byok_usage_monthly: monthly ? roundUsd(c.byok_usage_monthly) : 0,
  };
}

/** What was spent in the current window of `reset` (all time when null), BYOK spend included when asked. */
export function spentInWindow(reset: LimitReset | null, includeByok: boolean, usage: CurrentUsage): number {
  switch (reset) {
    case 'daily':
      return usage.usage_daily + (includeByok ? usage.byok_usage_daily : 0);
    case 'weekly':
      return usage.usage_weekly + (includeByok ? usage.byok_usage_weekly : 0);
    case 'monthly':
      return usage.usage_monthly + (includeByok ? usage.byok_usage_monthly : 0);
    case null:
      return usage.usage + (includeByok ? usage.byok_usage : 0);
  }
}

/** When the current window of `reset` ends (UTC midnight; weeks end on Sunday night); null for all time. */
export function windowEndsAt(reset: LimitReset | null, now: Date): Date | null {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (reset) {
    case 'daily':
      return new Date(Date.UTC(y, m, d + 1));
    case 'weekly':
      return new Date(Date.UTC(y, m, d + 7 - ((now.getUTCDay() + 6) % 7)));
    case 'monthly':
      return new Date(Date.UTC(y, m + 1, 1));
    case null:
      return null;
  }
}

/**
 * What is left of a limit in its current reset window; null when the key has
 * no limit. Below zero when the key spent more than its limit (a limit lowered
 * under its spend, or requests in flight when it ran out): by how much.
 */
export function limitRemaining(limit: number | null, reset: LimitReset | null, includeByok: boolean, usage: CurrentUsage): number | null {
  if (limit === null) return null;
  return roundUsd(limit - spentInWindow(reset, includeByok, usage));
}

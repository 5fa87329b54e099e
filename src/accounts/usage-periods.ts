import type { LimitReset } from '../store/schema.js';

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
  return {
    usage: c.usage,
    usage_daily: daily ? c.usage_daily : 0,
    usage_weekly: weekly ? c.usage_weekly : 0,
    usage_monthly: monthly ? c.usage_monthly : 0,
    byok_usage: c.byok_usage,
    byok_usage_daily: daily ? c.byok_usage_daily : 0,
    byok_usage_weekly: weekly ? c.byok_usage_weekly : 0,
    byok_usage_monthly: monthly ? c.byok_usage_monthly : 0,
  };
}

/** What is left of a limit in its current reset window; null when the key has no limit. */
export function limitRemaining(
  limit: number | null,
  reset: LimitReset | null,
  includeByok: boolean,
  usage: CurrentUsage,
): number | null {
  if (limit === null) return null;
  const spent =
    reset === 'daily'
      ? usage.usage_daily + (includeByok ? usage.byok_usage_daily : 0)
      : reset === 'weekly'
        ? usage.usage_weekly + (includeByok ? usage.byok_usage_weekly : 0)
        : reset === 'monthly'
          ? usage.usage_monthly + (includeByok ? usage.byok_usage_monthly : 0)
          : usage.usage + (includeByok ? usage.byok_usage : 0);
  return Math.max(0, limit - spent);
}

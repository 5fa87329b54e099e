import { describe, expect, it } from 'vitest';
import { currentUsage, limitRemaining, type UsageCounters, usagePeriodsAt, windowEndsAt } from './usage-periods.js';

const counters = (over: Partial<UsageCounters> = {}): UsageCounters => ({
  usage: 10,
  usage_daily: 1,
  usage_daily_period: '2026-11-21',
  usage_weekly: 3,
  usage_weekly_period: '2026-11-16',
  usage_monthly: 7,
  usage_monthly_period: '2026-11',
  byok_usage: 5,
  byok_usage_daily: 0.5,
  byok_usage_weekly: 1.5,
  byok_usage_monthly: 2.5,
  ...over,
});

describe('usage periods', () => {
  it('names the UTC day, the Monday of the week and the month', () => {
    expect(usagePeriodsAt(new Date('2026-11-21T23:59:59.999Z'))).toEqual({
      daily: '2026-11-21',
      weekly: '2026-11-16',
      monthly: '2026-11',
    });
  });

  it('starts a week on Monday and ends it on Sunday', () => {
    expect(usagePeriodsAt(new Date('2026-11-22T12:00:00Z')).weekly).toBe('2026-11-16'); // Sunday
    expect(usagePeriodsAt(new Date('2026-11-23T00:00:00Z')).weekly).toBe('2026-11-23'); // Monday
  });

  it('crosses a year in the middle of a week', () => {
    expect(usagePeriodsAt(new Date('2027-01-01T00:00:00Z'))).toEqual({
      daily: '2027-01-01',
      weekly: '2026-12-28',
      monthly: '2027-01',
    });
  });

  it('reads counters of the current periods as they are', () => {
    expect(currentUsage(counters(), new Date('2026-11-21T10:00:00Z'))).toMatchObject({
      usage_daily: 1,
      usage_weekly: 3,
      usage_monthly: 7,
      byok_usage_daily: 0.5,
    });
  });

  it('reads counters of past periods as zero after midnight UTC', () => {
    const next = currentUsage(counters(), new Date('2026-11-22T00:00:00Z'));
    expect(next).toMatchObject({ usage: 10, usage_daily: 0, usage_weekly: 3, usage_monthly: 7, byok_usage_daily: 0 });
    const nextWeek = currentUsage(counters(), new Date('2026-11-23T00:00:00Z'));
    expect(nextWeek).toMatchObject({ usage_weekly: 0, byok_usage_weekly: 0, usage_monthly: 7 });
    const nextMonth = currentUsage(counters(), new Date('2026-12-01T00:00:00Z'));
    expect(nextMonth).toMatchObject({ usage_monthly: 0, byok_usage_monthly: 0, usage: 10 });
  });
});

describe('limit remaining', () => {
  const usage = currentUsage(counters(), new Date('2026-11-21T10:00:00Z'));

  it('is null without a limit', () => {
    expect(limitRemaining(null, null, false, usage)).toBeNull();
  });

  it('subtracts the usage of the reset window', () => {
    expect(limitRemaining(20, null, false, usage)).toBe(10);
    expect(limitRemaining(20, 'daily', false, usage)).toBe(19);
    expect(limitRemaining(20, 'weekly', false, usage)).toBe(17);
    expect(limitRemaining(20, 'monthly', false, usage)).toBe(13);
  });

  it('counts BYOK usage only when asked to', () => {
    expect(limitRemaining(20, 'monthly', true, usage)).toBe(10.5);
  });

  it('goes below zero by what a key spent beyond its limit', () => {
    expect(limitRemaining(1, null, false, usage)).toBe(-9);
    expect(limitRemaining(10, null, false, usage)).toBe(0);
  });

  it('shows sums of charges without floating-point noise', () => {
    // 0.1 + 0.2 and the like: what a counter holds after adding charges.
    const summed = currentUsage(counters({ usage: 0.1 + 0.2, usage_daily: 0.0001 + 0.0002 }), new Date('2026-11-21T10:00:00Z'));
    expect(summed.usage).toBe(0.3);
    expect(summed.usage_daily).toBe(0.0003);
    expect(limitRemaining(0.5, null, false, { ...summed, usage: 0.1 + 0.2 })).toBe(0.2);
  });
});

describe('window end', () => {
  // 2026-11-21 is a Saturday.
  const now = new Date('2026-11-21T10:00:00Z');

  it('is the next UTC midnight, the Monday after the week, the first of the next month', () => {
    expect(windowEndsAt('daily', now)?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(windowEndsAt('weekly', now)?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(windowEndsAt('monthly', now)?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('ends a week that starts now seven days later, and a December in January', () => {
    expect(windowEndsAt('weekly', new Date('2026-11-23T00:00:00Z'))?.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(windowEndsAt('monthly', new Date('2026-12-31T23:59:59Z'))?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('is null for an all-time window', () => {
    expect(windowEndsAt(null, now)).toBeNull();
  });
});

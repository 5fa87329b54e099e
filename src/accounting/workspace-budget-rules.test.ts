import { describe, expect, it } from 'vitest';
import { budgetOrderViolation, budgetWindow } from './workspace-budget-rules.js';

const budget = (reset_interval: 'daily' | 'weekly' | 'monthly' | 'lifetime', limit_usd: number) => ({ reset_interval, limit_usd });

describe('budgetOrderViolation', () => {
  it('accepts limits that strictly decrease as the interval narrows, whichever intervals have one', () => {
    expect(budgetOrderViolation([])).toBeUndefined();
    expect(budgetOrderViolation([budget('lifetime', 100), budget('daily', 0), budget('weekly', 5)])).toBeUndefined();
  });

  it('names the narrower and the wider interval of the first pair out of order, across a missing interval too', () => {
    expect(budgetOrderViolation([budget('monthly', 10), budget('weekly', 10)])).toEqual([
      { interval: 'weekly', limitUsd: 10 },
      { interval: 'monthly', limitUsd: 10 },
    ]);
    expect(budgetOrderViolation([budget('lifetime', 5), budget('daily', 7)])).toEqual([
      { interval: 'daily', limitUsd: 7 },
      { interval: 'lifetime', limitUsd: 5 },
    ]);
  });
});

describe('budgetWindow', () => {
  it('counts a lifetime budget over all time and the others over their period', () => {
    expect(budgetWindow('lifetime')).toBeNull();
    expect(budgetWindow('weekly')).toBe('weekly');
  });
});

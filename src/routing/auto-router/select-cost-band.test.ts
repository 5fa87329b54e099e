import { describe, expect, it } from 'vitest';
import { type CostTier, costBand, costPercentiles, selectInBand } from './select-cost-band.js';

const prices = { a: 1, b: 2, c: 3, d: 4, e: 5 };
const percentiles = costPercentiles(Object.keys(prices), (id) => prices[id as keyof typeof prices]);
const select = (tier?: CostTier, tradeoff?: number) => selectInBand(percentiles, costBand(tier, tradeoff)).kept;

describe('cost bands', () => {
  it('ranks costs 0 (cheapest) to 100 (dearest), equal costs alike', () => {
    expect([...percentiles.values()]).toEqual([0, 25, 50, 75, 100]);
    expect([...costPercentiles(['x', 'y', 'z'], (id) => (id === 'z' ? 2 : 1)).values()]).toEqual([0, 0, 100]);
    expect([...costPercentiles(['only'], () => 1).values()]).toEqual([0]);
  });

  it.each([
    ['low', ['a']],
    ['medium', ['b']],
    ['high', ['c']],
    ['xhigh', ['d']],
    ['max', ['e']],
  ] as const)('cost_tier %s keeps its band', (tier, kept) => {
    expect(select(tier)).toEqual(kept);
  });

  it.each([
    [10, ['a']],
    [9, ['a']],
    [5, ['a', 'b', 'c']],
    [0, ['a', 'b', 'c', 'd']],
  ])('cost_quality_tradeoff %i keeps percentiles up to 90 − 8 × t', (tradeoff, kept) => {
    expect(select(undefined, tradeoff)).toEqual(kept);
  });

  it('defaults to a tradeoff of 9 and lets cost_tier win over the tradeoff', () => {
    expect(costBand(undefined, undefined)).toMatchObject({ from: 0, to: 18, label: 'cost_quality_tradeoff 9 (default): [0, 18]' });
    expect(select('max', 10)).toEqual(['e']);
  });

  it('takes the nearest models when the band holds none', () => {
    const three = costPercentiles(['x', 'y', 'z'], (id) => ({ x: 1, y: 2, z: 3 })[id]!); // 0, 50, 100
    expect(selectInBand(three, costBand('medium', undefined))).toEqual({ kept: ['y'], nearest: true });
    expect(selectInBand(three, costBand('xhigh', undefined))).toEqual({ kept: ['y'], nearest: true });
    expect(selectInBand(three, costBand('max', undefined))).toEqual({ kept: ['z'], nearest: false });
  });
});

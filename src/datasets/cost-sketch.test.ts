import { describe, expect, it } from 'vitest';
import { addCost, addEncoded, emptySketch, encodeSketch, RELATIVE_ERROR, sketchCount, sketchMedian } from './cost-sketch.js';

/** A seeded generator, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const exactMedian = (costs: number[]) => {
  const sorted = [...costs].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const sketchOf = (costs: number[]) => {
  const sketch = emptySketch();
  for (const cost of costs) addCost(sketch, cost);
  return sketch;
};

describe('the cost sketch', () => {
  it.each([1, 2, 3, 10, 101, 1000])('gives the median of %i costs within its relative error', (count) => {
    const random = seeded(count);
    const costs = Array.from({ length: count }, () => 10 ** (-6 + 6 * random()));
    const median = sketchMedian(sketchOf(costs))!;
    expect(Math.abs(median - exactMedian(costs))).toBeLessThanOrEqual(exactMedian(costs) * RELATIVE_ERROR);
  });

  it('counts free sessions apart, and the median of two is the mean of both', () => {
    expect(sketchMedian(sketchOf([0, 0, 0.5]))).toBe(0);
    const two = sketchMedian(sketchOf([0, 1]))!;
    expect(Math.abs(two - 0.5)).toBeLessThanOrEqual(0.5 * RELATIVE_ERROR);
    expect(sketchMedian(emptySketch())).toBeUndefined();
  });

  it('merges as if all costs were counted in one, and survives its encoding', () => {
    const random = seeded(7);
    const a = Array.from({ length: 50 }, () => random());
    const b = Array.from({ length: 31 }, () => random() * 10);
    const merged = sketchOf(a);
    addEncoded(merged, encodeSketch(sketchOf(b)));
    expect(merged).toEqual(sketchOf([...a, ...b]));
    expect(sketchCount(merged)).toBe(81);
    const again = emptySketch();
    addEncoded(again, encodeSketch(merged));
    expect(again).toEqual(merged);
  });
});

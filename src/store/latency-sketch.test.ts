import { describe, expect, it } from 'vitest';
import { bucketColumn, bucketFloor, bucketOf, bucketValue, LATENCY_BUCKETS, LATENCY_COLUMNS, quantileOf } from './latency-sketch.js';

describe('the latency sketch', () => {
  it('has 36 buckets a sketch, √2 apart from 8 ms to 2^20 ms', () => {
    expect(LATENCY_COLUMNS).toHaveLength(2 * LATENCY_BUCKETS);
    expect([bucketOf(0), bucketOf(7.9), bucketOf(8), bucketOf(11.3), bucketOf(11.4), bucketOf(16)]).toEqual([0, 0, 1, 1, 2, 3]);
    expect([bucketOf(2 ** 20 - 1), bucketOf(2 ** 20), bucketOf(1e9)]).toEqual([34, 35, 35]);
    expect(bucketColumn('ttft', 16)).toBe('ttft_b03');
    for (let i = 1; i < LATENCY_BUCKETS; i++) expect(bucketOf(bucketFloor(i))).toBe(i);
  });

  it('reads a time within 19% from 8 ms to 17.5 minutes, within 4 ms below', () => {
    for (let ms = 0; ms < 8; ms += 0.5) expect(Math.abs(bucketValue(bucketOf(ms)) - ms)).toBeLessThanOrEqual(4);
    for (let ms = 8; ms < 2 ** 20; ms *= 1.013) {
      const read = bucketValue(bucketOf(ms));
      expect(Math.abs(read - ms) / ms, `${ms} ms read as ${read}`).toBeLessThan(0.19);
    }
  });

  it("merges by adding counts: the quantiles of two hours' sketches added are those of their times together", () => {
    const sketch = (times: number[]) => {
      const counts = Array<number>(LATENCY_BUCKETS).fill(0);
      for (const ms of times) counts[bucketOf(ms)]! += 1;
      return counts;
    };
    const a = [30, 45, 60, 2_000];
    const b = [90, 100, 110, 120, 130, 150, 8_000];
    const added = sketch(a).map((n, i) => n + sketch(b)[i]!);
    const together = sketch([...a, ...b]);
    expect(added).toEqual(together);
    // 11 times: the 6th is the median (110 ms), the 11th the p95 (8 s).
    expect(quantileOf(added, 0.5)).toBe(bucketValue(bucketOf(110)));
    expect(quantileOf(added, 0.95)).toBe(bucketValue(bucketOf(8_000)));
    expect(quantileOf(Array(LATENCY_BUCKETS).fill(0), 0.5)).toBeNull();
  });
});

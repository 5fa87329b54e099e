import type { Summary } from './load-types.js';

/** Nearest-rank percentiles over every sample (exact, no histogram buckets: the runs are small enough to sort). */
export function summarize(values: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  if (n === 0) return { count: 0, mean: NaN, min: NaN, p50: NaN, p90: NaN, p99: NaN, max: NaN };
  const rank = (q: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  return { count: n, mean: sum / n, min: sorted[0]!, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: sorted[n - 1]! };
}

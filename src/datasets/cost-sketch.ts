/**
 * A mergeable sketch of costs for medians (as DDSketch): each cost is
 * counted in a logarithmic bucket whose every value is within RELATIVE_ERROR
 * of the bucket's representative value, so any rank's value, and a median
 * (the middle one, or the mean of the middle two), is within that error of
 * the exact one, whatever the count; sketches merge by adding counts. Costs
 * of 0 (free models) are counted apart.
 */
export const RELATIVE_ERROR = 0.005;
const GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);

/** The buckets kept: costs from 1e-12 to 1e6 USD (a cost outside is counted in the nearest end bucket). */
const bucketOf = (cost: number) => Math.ceil(Math.log(cost) / LOG_GAMMA);
const LOWEST = bucketOf(1e-12);
const BUCKETS = bucketOf(1e6) - LOWEST + 1;

/** Counts in a dense array, so that merging many stored sketches is additions only. */
export interface CostSketch {
  zeros: number;
  /** Bucket index - LOWEST → count. */
  counts: Float64Array;
}

export const emptySketch = (): CostSketch => ({ zeros: 0, counts: new Float64Array(BUCKETS) });

/** The value a bucket stands for: within RELATIVE_ERROR of each cost in it. */
const bucketValue = (slot: number) => (2 * GAMMA ** (slot + LOWEST)) / (GAMMA + 1);

export function addCost(sketch: CostSketch, cost: number): void {
  if (cost <= 0) sketch.zeros += 1;
  else sketch.counts[Math.min(BUCKETS - 1, Math.max(0, bucketOf(cost) - LOWEST))]! += 1;
}

/** Adds a stored sketch's counts (encodeSketch's text) to `into`. */
export function addEncoded(into: CostSketch, text: string): void {
  const stored = JSON.parse(text) as number[];
  into.zeros += stored[0] ?? 0;
  for (let i = 1; i + 1 < stored.length; i += 2) into.counts[stored[i]! - LOWEST]! += stored[i + 1]!;
}

export function sketchCount(sketch: CostSketch): number {
  let count = sketch.zeros;
  for (const n of sketch.counts) count += n;
  return count;
}

/** The median of the counted costs (the mean of the middle two for an even count); undefined for none. */
export function sketchMedian(sketch: CostSketch): number | undefined {
  const count = sketchCount(sketch);
  if (count === 0) return undefined;
  const ranks = count % 2 === 1 ? [(count - 1) / 2] : [count / 2 - 1, count / 2];
  const values: number[] = [];
  let seen = sketch.zeros;
  for (const rank of ranks) if (rank < seen) values.push(0);
  for (let slot = 0; slot < BUCKETS && values.length < ranks.length; slot++) {
    const next = seen + sketch.counts[slot]!;
    for (const rank of ranks) if (rank >= seen && rank < next) values.push(bucketValue(slot));
    seen = next;
  }
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** As stored: `[zeros, bucket, count, bucket, count, …]` in JSON, the counted buckets only. */
export function encodeSketch(sketch: CostSketch): string {
  const stored = [sketch.zeros];
  sketch.counts.forEach((count, slot) => {
    if (count > 0) stored.push(slot + LOWEST, count);
  });
  return JSON.stringify(stored);
}

/**
 * The rollups' latency sketch: a histogram of fixed, log-spaced buckets kept
 * as counts in columns of usage_hourly and usage_daily (migration 0044), one
 * set for the whole request's time (latency_ms) and one for its first token
 * (ttft_ms). Two hours' sketches merge by adding their counts, as every other
 * sum of the rollups does, so a day, a range or a group reads its quantiles
 * from the added buckets.
 *
 * Bucket 0 holds [0, 8 ms); bucket i (1 to 34) holds [2^((i+5)/2), 2^((i+6)/2))
 * ms, each √2 wider than the one before, up to 2^20 ms (17.5 minutes); bucket
 * 35 holds the rest. A quantile is read as the geometric middle of the
 * bucket it falls in: within 19% (2^¼ − 1) of the true value from 8 ms to
 * 17.5 minutes, within 4 ms below, and at least 17.5 minutes above.
 */
export const LATENCY_BUCKETS = 36;

/** What a sketch measures: the request's whole time, or its time to the first token. */
export type LatencySketch = 'latency' | 'ttft';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** A bucket's column, latency_b00 to latency_b35 and ttft_b00 to ttft_b35. */
export type LatencyBucketColumn = `${LatencySketch}_b${`${'0' | '1' | '2'}${Digit}` | `3${'0' | '1' | '2' | '3' | '4' | '5'}`}`;

const LAST = LATENCY_BUCKETS - 1;

/** The columns of a sketch, bucket 0 first. */
export const bucketColumns = (sketch: LatencySketch): LatencyBucketColumn[] =>
  Array.from({ length: LATENCY_BUCKETS }, (_, i) => columnOf(sketch, i));

const columnOf = (sketch: LatencySketch, i: number) => `${sketch}_b${String(i).padStart(2, '0')}` as LatencyBucketColumn;

/** Both sketches' columns. */
export const LATENCY_COLUMNS: readonly LatencyBucketColumn[] = [...bucketColumns('latency'), ...bucketColumns('ttft')];

/** The bucket a time of `ms` milliseconds counts in. */
export function bucketOf(ms: number): number {
  if (!(ms >= 8)) return 0;
  return Math.min(LAST, Math.floor(2 * Math.log2(ms)) - 5);
}

/** Both sketches with nothing counted. */
export const emptySketches = () => Object.fromEntries(LATENCY_COLUMNS.map((column) => [column, 0])) as Record<LatencyBucketColumn, number>;

/** The column of `sketch`'s bucket that a time of `ms` milliseconds counts in. */
export const bucketColumn = (sketch: LatencySketch, ms: number): LatencyBucketColumn => columnOf(sketch, bucketOf(ms));

/** The lower bound (ms) of bucket `i`. */
export const bucketFloor = (i: number): number => (i === 0 ? 0 : 2 ** ((i + 5) / 2));

/** What a quantile falling in bucket `i` reads as (ms): the geometric middle of its bounds; bucket 0's middle, and the last's floor. */
export function bucketValue(i: number): number {
  if (i === 0) return 4;
  if (i === LAST) return bucketFloor(LAST);
  return 2 ** ((i + 5) / 2 + 0.25);
}

/** The `q` quantile (0 < q ≤ 1) of a sketch's counts, bucket 0 first: the value of the first bucket by which `q` of all are counted; null when it counts none. */
export function quantileOf(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [i, n] of counts.entries()) {
    seen += n;
    if (seen >= q * total) return bucketValue(i);
  }
  return bucketValue(LAST);
}

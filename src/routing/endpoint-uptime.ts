/** The windows the reference reports uptime over, by its field names. */
export const UPTIME_WINDOWS = {
  uptime_last_5m: 5 * 60_000,
  uptime_last_30m: 30 * 60_000,
  uptime_last_1d: 24 * 60 * 60_000,
} as const;

const BUCKET_MS = 60_000;
const KEPT_MS = UPTIME_WINDOWS.uptime_last_1d;

interface Bucket {
  /** Start of the minute, epoch milliseconds. */
  start: number;
  served: number;
  failed: number;
}

/**
 * Attempts each endpoint answered or failed, counted per minute over the
 * last day (at most 1440 buckets an endpoint); in memory, per instance. A
 * window reads the minutes that began within it, so "the last 5 minutes" is
 * up to one minute longer.
 */
export class EndpointUptime {
  private readonly buckets = new Map<string, Bucket[]>();

  record(endpoint: string, served: boolean, at: number): void {
    let list = this.buckets.get(endpoint);
    if (!list) this.buckets.set(endpoint, (list = []));
    const start = at - (at % BUCKET_MS);
    let last = list[list.length - 1];
    if (last?.start !== start) list.push((last = { start, served: 0, failed: 0 }));
    if (served) last.served++;
    else last.failed++;
    while (list[0] && list[0].start <= at - KEPT_MS - BUCKET_MS) list.shift();
  }

  /** The endpoint's attempts over the last windowMs. */
  tally(endpoint: string, windowMs: number, now: number): Tally {
    const tally = { served: 0, attempts: 0 };
    for (const bucket of this.buckets.get(endpoint) ?? []) {
      if (bucket.start <= now - windowMs - BUCKET_MS) continue;
      tally.served += bucket.served;
      tally.attempts += bucket.served + bucket.failed;
    }
    return tally;
  }
}

/** Attempts counted over a window, and how many of them were served. */
export interface Tally {
  served: number;
  attempts: number;
}

/** Served attempts over all attempts, in percent, as the reference reports uptime; null without an attempt. */
export const uptimePercent = ({ served, attempts }: Tally): number | null => (attempts > 0 ? (served / attempts) * 100 : null);

/** Several endpoints' tallies as one (a provider's). */
export const sumTallies = (tallies: readonly Tally[]): Tally =>
  tallies.reduce((sum, t) => ({ served: sum.served + t.served, attempts: sum.attempts + t.attempts }), { served: 0, attempts: 0 });

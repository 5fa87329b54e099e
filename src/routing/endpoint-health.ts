import { type EndpointFigures, EndpointStats, type ServedSample } from './endpoint-stats.js';
import { EndpointUptime, type Tally } from './endpoint-uptime.js';

/** How long an endpoint that failed is avoided. */
export const UNHEALTHY_FOR_MS = 30_000;

/** An endpoint's last failure: when, the upstream's status when it answered one, and what went wrong. */
export interface EndpointFailure {
  at: number;
  status?: number;
  message: string;
}

/**
 * Endpoints (model × endpoint, see endpointKey) that failed recently, and
 * what the served ones measured. The planner tries failed ones last, not
 * never: the only endpoint left is still worth a try.
 */
export class EndpointHealth {
  private readonly failedAt = new Map<string, number>();
  /** Kept past the rest the failure bought: one per endpoint of the catalog at most. */
  private readonly lastFailures = new Map<string, EndpointFailure>();
  private readonly stats = new EndpointStats();
  private readonly attempts = new EndpointUptime();

  constructor(private readonly now: () => number) {}

  /** A rate-limited attempt makes the endpoint rest too, but is no outage: uptime leaves it out, as the reference does. */
  recordFailure(
    endpoint: string,
    { rateLimited = false, error }: { rateLimited?: boolean; error?: Omit<EndpointFailure, 'at'> } = {},
  ): void {
    const now = this.now();
    this.failedAt.set(endpoint, now);
    if (error)
      this.lastFailures.set(endpoint, { at: now, ...(error.status !== undefined ? { status: error.status } : {}), message: error.message });
    if (!rateLimited) this.attempts.record(endpoint, false, now);
  }

  /** The endpoint's last failure this instance saw, however long ago. */
  lastFailure(endpoint: string): EndpointFailure | undefined {
    return this.lastFailures.get(endpoint);
  }

  recordSuccess(endpoint: string): void {
    this.failedAt.delete(endpoint);
    this.attempts.record(endpoint, true, this.now());
  }

  /** The endpoint's attempts of the last windowMs, and how many it answered. */
  attemptsOver(endpoint: string, windowMs: number): Tally {
    return this.attempts.tally(endpoint, windowMs, this.now());
  }

  recordServed(endpoint: string, sample: ServedSample): void {
    this.stats.record(endpoint, sample, this.now());
  }

  /** Requests the endpoint served lately. */
  traffic(endpoint: string): number {
    return this.stats.samples(endpoint);
  }

  figures(endpoint: string): EndpointFigures | undefined {
    return this.stats.figures(endpoint);
  }

  /** The figures of the requests of the last windowMs among the last STATS_WINDOW. */
  recentFigures(endpoint: string, windowMs: number): EndpointFigures | undefined {
    return this.stats.figuresSince(endpoint, this.now() - windowMs);
  }

  unhealthy(): Set<string> {
    const cutoff = this.now() - UNHEALTHY_FOR_MS;
    const out = new Set<string>();
    for (const [endpoint, at] of this.failedAt) {
      if (at > cutoff) out.add(endpoint);
      else this.failedAt.delete(endpoint);
    }
    return out;
  }

  isHealthy(endpoint: string): boolean {
    const at = this.failedAt.get(endpoint);
    return at === undefined || at <= this.now() - UNHEALTHY_FOR_MS;
  }
}

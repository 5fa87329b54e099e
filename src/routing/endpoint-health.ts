import { type EndpointFigures, EndpointStats, type ServedSample } from './endpoint-stats.js';

/** How long an endpoint that failed is avoided. */
export const UNHEALTHY_FOR_MS = 30_000;

/**
 * Endpoints (model × endpoint, see endpointKey) that failed recently, and
 * what the served ones measured. The planner tries failed ones last, not
 * never: the only endpoint left is still worth a try.
 */
export class EndpointHealth {
  private readonly failedAt = new Map<string, number>();
  private readonly stats = new EndpointStats();

  constructor(private readonly now: () => number) {}

  recordFailure(endpoint: string): void {
    this.failedAt.set(endpoint, this.now());
  }

  recordSuccess(endpoint: string): void {
    this.failedAt.delete(endpoint);
  }

  recordServed(endpoint: string, sample: ServedSample): void {
    this.stats.record(endpoint, sample);
  }

  /** Requests the endpoint served lately. */
  traffic(endpoint: string): number {
    return this.stats.samples(endpoint);
  }

  figures(endpoint: string): EndpointFigures | undefined {
    return this.stats.figures(endpoint);
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

/** How long a provider that failed is avoided. */
export const UNHEALTHY_FOR_MS = 30_000;

/**
 * Providers that failed recently. The planner tries them last (not never: a
 * provider that is the only one left is still worth a try).
 */
export class EndpointHealth {
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  recordFailure(provider: string): void {
    this.failedAt.set(provider, this.now());
  }

  recordSuccess(provider: string): void {
    this.failedAt.delete(provider);
  }

  unhealthy(): Set<string> {
    const cutoff = this.now() - UNHEALTHY_FOR_MS;
    const out = new Set<string>();
    for (const [provider, at] of this.failedAt) {
      if (at > cutoff) out.add(provider);
      else this.failedAt.delete(provider);
    }
    return out;
  }

  isHealthy(provider: string): boolean {
    const at = this.failedAt.get(provider);
    return at === undefined || at <= this.now() - UNHEALTHY_FOR_MS;
  }
}

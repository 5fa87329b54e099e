import { LRUCache } from 'lru-cache';
import { staleOnOutage } from '../store/stale-on-outage.js';

/**
 * Each organization's total credits (the sum of its grants; null when it
 * was never granted any), so that a paid request reads no database to learn
 * whether its organization's balance must cover it. Concurrent misses share
 * one load; a grant drops the entry on every instance through the change
 * feed (CREDITS_TOPIC), the TTL is the backstop for a lost notice; what is
 * known is served while the database is away.
 */
export class CreditsCache {
  private readonly cache: LRUCache<string, { totalUsd: number | null }>;

  constructor(load: (organizationId: string) => Promise<number | null>, options: { max?: number; ttlMs?: number } = {}) {
    this.cache = new LRUCache<string, { totalUsd: number | null }>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      ...staleOnOutage<string, { totalUsd: number | null }>(async (organizationId) => ({ totalUsd: await load(organizationId) })),
    });
  }

  async get(organizationId: string): Promise<number | null> {
    const entry = this.cache.get(organizationId) ?? (await this.cache.fetch(organizationId));
    if (!entry) throw new Error(`credits of ${organizationId} could not be loaded`);
    return entry.totalUsd;
  }

  invalidate(organizationId: string): void {
    this.cache.delete(organizationId);
  }
}

/** The change-feed topic whose notices carry an organization id whose grants changed. */
export const CREDITS_TOPIC = 'credits';

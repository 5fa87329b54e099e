import { LRUCache } from 'lru-cache';
import { staleOnOutage } from '../store/stale-on-outage.js';

/** Change-feed topics that drop these caches: the id is an organization id, or membershipKey(organization, user). */
export const INTERN_PROGRAMME_TOPIC = 'intern_programme';
export const MEMBERSHIP_TOPIC = 'membership';

/**
 * Yes/no answers (is this organization in the programme, is this user a
 * member) kept in memory so that gating an intern request reads no database.
 * A change notice drops the entry (store/change-feed.ts); the TTL bounds how
 * long an answer lives when the change came from a process that could not
 * reach this one (the command line on SQLite). Concurrent misses share a load.
 * What is known is served while the database is away.
 */
export class FlagCache {
  private readonly cache: LRUCache<string, boolean>;

  constructor(load: (key: string) => Promise<boolean>, ttlMs: number, max = 50_000) {
    this.cache = new LRUCache<string, boolean>({ max, ttl: ttlMs, ...staleOnOutage<string, boolean>((key) => load(key)) });
  }

  async has(key: string): Promise<boolean> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    return (await this.cache.fetch(key)) === true;
  }

  invalidate(key: string): void {
    this.cache.delete(key);
  }
}

/** The membership cache's key: an organization and a user. */
export const membershipKey = (organizationId: string, userId: string): string => `${organizationId}\n${userId}`;

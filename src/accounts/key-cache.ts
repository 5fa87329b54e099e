import { LRUCache } from 'lru-cache';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { staleOnOutage } from '../store/stale-on-outage.js';

const MISSING = Symbol('missing');
type Entry = ApiKeyRow | typeof MISSING;

export interface KeyCacheOptions {
  /** Records kept in memory. */
  max?: number;
  /** A found key is re-read after this long even if no change notice arrived. */
  ttlMs?: number;
  /** An unknown key is re-read after this long (keeps guessing from reaching the database). */
  missingTtlMs?: number;
}

/**
 * Key records by hash, so that authentication reads no database on the hot
 * path. Concurrent misses for one hash share one load. Changes invalidate the
 * entry (see store/change-feed.ts); the TTL is the backstop for a lost notice.
 * While the database is away a known key goes on being served as it was last
 * read (store/stale-on-outage.ts).
 */
export class KeyCache {
  private readonly cache: LRUCache<string, Entry>;

  constructor(
    load: (hash: string) => Promise<ApiKeyRow | undefined>,
    private readonly options: KeyCacheOptions = {},
  ) {
    this.cache = new LRUCache<string, Entry>({
      max: options.max ?? 50_000,
      ttl: options.ttlMs ?? 60_000,
      ...staleOnOutage<string, Entry>(async (hash, _stale, { options: fetchOptions }) => {
        const row = await load(hash);
        if (row) return row;
        fetchOptions.ttl = this.options.missingTtlMs ?? 5_000;
        return MISSING;
      }),
    });
  }

  async get(hash: string): Promise<ApiKeyRow | undefined> {
    const hit = this.cache.get(hash);
    const entry = hit ?? (await this.cache.fetch(hash));
    return entry === MISSING || entry === undefined ? undefined : entry;
  }

  invalidate(hash: string): void {
    this.cache.delete(hash);
  }
}

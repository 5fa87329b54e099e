import type { LRUCache } from 'lru-cache';
import { isDatabaseUnavailable } from './database-unavailable.js';

/** How soon an entry served stale through an outage is read again. */
const RETRY_STALE_AFTER_MS = 1_000;

/**
 * lru-cache options for a cache over the database that goes on serving what
 * it knows while the database is away: an expired entry is kept (get() does
 * not drop it), and when reading it again fails because the database cannot
 * be reached, it is served as it was and read again a second later. What
 * was never read still fails (503), and any other failure is the caller's.
 */
export function staleOnOutage<K extends {}, V extends {}>(fetchMethod: LRUCache.Fetcher<K, V>) {
  return {
    noDeleteOnStaleGet: true,
    fetchMethod: (async (key, stale, options) => {
      try {
        return await fetchMethod(key, stale, options);
      } catch (error) {
        if (stale === undefined || !isDatabaseUnavailable(error)) throw error;
        options.options.ttl = RETRY_STALE_AFTER_MS;
        return stale;
      }
    }) satisfies LRUCache.Fetcher<K, V>,
  };
}

import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { localChangeFeed, postgresChangeFeed, redisChangeFeed, type ChangeFeed } from '../store/change-feed.js';
import type { Store } from '../store/database.js';
import { CACHE_PINS, memoryPins, redisPins, SESSION_PINS, type ProviderPins } from '../routing/provider-pins.js';

export interface SharedState {
  changes: ChangeFeed;
  sessionPins: ProviderPins;
  cachePins: ProviderPins;
  /** The shared Redis connection, when there is one (per-key rate limits count there). */
  redis?: Redis;
  close(): Promise<void>;
}

/**
 * What instances share beyond the database: with REDIS_URL, change notices
 * and session and prompt-cache pins go through Redis; without it, notices
 * ride PostgreSQL (when that is the database) and pins stay in each process.
 */
export async function connectSharedState(store: Store, redisUrl: string | undefined, logger: Pick<Logger, 'warn'>): Promise<SharedState> {
  const warn = (what: string) => (error: Error) => logger.warn({ err: error }, what);
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const subscriber = new Redis(redisUrl);
    redis.on('error', warn('redis connection error'));
    subscriber.on('error', warn('redis subscriber connection error'));
    const changes = await redisChangeFeed(redis, subscriber);
    return {
      changes,
      sessionPins: redisPins(redis, SESSION_PINS),
      cachePins: redisPins(redis, CACHE_PINS),
      redis,
      async close() {
        await changes.close();
        redis.disconnect();
      },
    };
  }
  const changes = store.engine === 'postgres' ? await postgresChangeFeed(store.url, warn('change feed connection lost')) : localChangeFeed();
  return { changes, sessionPins: memoryPins(SESSION_PINS), cachePins: memoryPins(CACHE_PINS), close: () => changes.close() };
}

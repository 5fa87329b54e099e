import type { Logger } from 'pino';
import { CACHE_PINS, memoryPins, type ProviderPins, redisPins, SESSION_PINS } from '../routing/provider-pins.js';
import { type ChangeFeed, localChangeFeed, postgresChangeFeed, redisChangeFeed } from '../store/change-feed.js';
import type { Store } from '../store/database.js';
import { SharedRedis } from '../store/shared-redis.js';
import { REDIS_DEFAULTS } from '../store/shared-service-defaults.js';
import { type OutageLog, outageLog } from '../util/outage-log.js';

export interface SharedState {
  changes: ChangeFeed;
  sessionPins: ProviderPins;
  cachePins: ProviderPins;
  /** Redis, when there is one: per-key rate limits, turn quotas and spend holds count there while it answers. */
  redis?: SharedRedis;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  /** How long a Redis command may wait (REDIS_COMMAND_TIMEOUT_MS). */
  redisCommandTimeoutMs?: number;
  /** Where the PostgreSQL change feed reports a lost connection: the store's own outage log, so that one outage is told once. */
  databaseOutage?: OutageLog;
}

/** A start waits this long for Redis, then serves on this instance's state until Redis is back. */
const REDIS_START_WAIT_MS = 2_000;

/**
 * What instances share beyond the database: with REDIS_URL, change notices
 * and session and prompt-cache pins go through Redis (each with this
 * instance's state to fall back on while Redis is away); without it, notices
 * ride PostgreSQL (when that is the database) and pins stay in each process.
 */
export async function connectSharedState(
  store: Store,
  redisUrl: string | undefined,
  logger: Pick<Logger, 'warn'> & Partial<Pick<Logger, 'info'>>,
  options: SharedStateOptions = {},
): Promise<SharedState> {
  if (redisUrl) {
    const outage = outageLog(logger, 'Redis', 'pins, rate limits, turn quotas, spend holds and change notices are kept in this instance');
    const redis = new SharedRedis(redisUrl, { commandTimeoutMs: options.redisCommandTimeoutMs ?? REDIS_DEFAULTS.commandTimeoutMs, outage });
    const up = await redis.ready(REDIS_START_WAIT_MS);
    const changes = await redisChangeFeed(redis, redis.subscriber(), () => undefined, up ? REDIS_START_WAIT_MS : 0);
    return {
      changes,
      sessionPins: redisPins(redis, SESSION_PINS),
      cachePins: redisPins(redis, CACHE_PINS),
      redis,
      async close() {
        await changes.close();
        redis.close();
      },
    };
  }
  const databaseOutage = options.databaseOutage ?? outageLog(logger, 'PostgreSQL', 'change notices are not heard');
  const changes =
    store.engine === 'postgres' ? await postgresChangeFeed(store.url, (error) => databaseOutage.down(error)) : localChangeFeed();
  return { changes, sessionPins: memoryPins(SESSION_PINS), cachePins: memoryPins(CACHE_PINS), close: () => changes.close() };
}

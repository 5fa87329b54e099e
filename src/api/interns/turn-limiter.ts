import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Where Redis keeps the counters: `<prefix>:<turns per minute>:<intern id>`. */
export const TURN_LIMIT_PREFIX = 'mg:rate:intern';

export type TurnDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one turn of an intern against its `turns_per_minute`; null means no quota. */
export type TurnLimiter = (internId: string, turnsPerMinute: number | null) => Promise<TurnDecision>;

/**
 * The per-intern turn quota (spec 7.3's 429). One fixed one-minute window per
 * intern, in Redis when instances share one so the quota holds across them,
 * in memory otherwise. A limiter is made per quota value, since an intern's
 * quota is a setting that can change; a Redis outage falls back to memory.
 */
export function turnLimiter(redis?: Redis): TurnLimiter {
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (!limiter) {
      const options = { points, duration: 60, keyPrefix: `${TURN_LIMIT_PREFIX}:${points}` };
      limiter = redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) }) : new RateLimiterMemory(options);
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return async (internId, turnsPerMinute) => {
    if (turnsPerMinute === null) return { allowed: true };
    try {
      await limiterFor(turnsPerMinute).consume(internId);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      throw rejection;
    }
  };
}

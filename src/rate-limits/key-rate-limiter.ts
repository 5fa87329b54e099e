import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** gateway.yaml's `rate_limits`: how many requests one API key may make per window. */
export interface RateLimitSettings {
  requests_per_key: number;
  window_seconds: number;
}

/** Whether a key may make one more request now, and if not, when it may. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; settings: RateLimitSettings };

/** Where Redis keeps the counters: `<prefix>:<key hash>`. */
export const RATE_LIMIT_PREFIX = 'mg:rate:key';

export type KeyRateLimiter = (keyHash: string) => Promise<RateLimitDecision>;

/**
 * A fixed-window request counter per API key. In memory for one instance;
 * in Redis when instances share one, so the limit holds across all of them.
 * If Redis cannot be reached the request goes on (counted in memory): a
 * limiter outage must not take the API down.
 */
export function keyRateLimiter(settings: RateLimitSettings, redis?: Redis): KeyRateLimiter {
  const options = { points: settings.requests_per_key, duration: settings.window_seconds, keyPrefix: RATE_LIMIT_PREFIX };
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
  return async (keyHash) => {
    try {
      await limiter.consume(keyHash);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), settings };
      throw rejection;
    }
  };
}

import { fixedWindow } from '../store/fixed-window.js';
import type { SharedRedis } from '../store/shared-redis.js';

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
 * If Redis cannot be reached the request goes on, counted in this instance
 * (store/fixed-window.ts): a limiter outage must not take the API down.
 */
export function keyRateLimiter(settings: RateLimitSettings, redis?: SharedRedis): KeyRateLimiter {
  const window = fixedWindow({ points: settings.requests_per_key, duration: settings.window_seconds, keyPrefix: RATE_LIMIT_PREFIX }, redis);
  return async (keyHash) => {
    const decision = await window(keyHash);
    return decision.allowed
      ? decision
      : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)), settings };
  };
}

import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { SharedRedis } from './shared-redis.js';

export interface WindowSettings {
  /** Requests allowed per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
  /** Redis key prefix of the counters. */
  keyPrefix: string;
}

/** Whether one more may go now, and if not, how long until the window ends. */
export type WindowDecision = { allowed: true } | { allowed: false; msBeforeNext: number };

/** Counts one for a key and says whether it fits its window; `giveBack` takes one count back (what was counted turned out not to count). */
export interface FixedWindow {
  (key: string): Promise<WindowDecision>;
  giveBack(key: string): Promise<void>;
}

/**
 * A fixed-window counter per key: in Redis when instances share one, so that
 * a limit holds across them; in this instance while Redis does not answer
 * (its calls fail fast and its breaker skips it), and always without Redis.
 * A limiter outage must not take the API down: meanwhile each instance
 * counts on its own.
 */
export function fixedWindow(settings: WindowSettings, redis?: SharedRedis): FixedWindow {
  const local = new RateLimiterMemory(settings);
  const shared = redis && new RateLimiterRedis({ ...settings, storeClient: redis.client, rejectIfRedisNotReady: true });
  const onEither = async <T>(operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> => {
    if (redis && shared) {
      try {
        return await redis.run(() => operation(shared));
      } catch {
        // Redis is away: counted below, in this instance.
      }
    }
    return operation(local);
  };
  const window = (key: string) => onEither((limiter) => consume(limiter, key));
  window.giveBack = async (key: string) => {
    await onEither((limiter) => limiter.reward(key));
  };
  return window;
}

/** The limiter rejects with a RateLimiterRes past the limit: an answer, not a failure (and not one for the breaker). */
const consume = (limiter: RateLimiterAbstract, key: string): Promise<WindowDecision> =>
  limiter.consume(key).then(
    () => ({ allowed: true }),
    (rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) return { allowed: false, msBeforeNext: rejection.msBeforeNext };
      throw rejection;
    },
  );

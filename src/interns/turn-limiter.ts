import { fixedWindow, type WindowDecision } from '../store/fixed-window.js';
import type { SharedRedis } from '../store/shared-redis.js';

/** Where Redis keeps the counters: `<prefix>:<turns per minute>:<intern id>`. */
export const TURN_LIMIT_PREFIX = 'mg:rate:intern';

export type TurnDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one turn of an intern against its `turns_per_minute`; null means no quota. */
export type TurnLimiter = (internId: string, turnsPerMinute: number | null) => Promise<TurnDecision>;

/**
 * The per-intern turn quota (spec 7.3's 429). One fixed one-minute window per
 * intern, in Redis when instances share one so the quota holds across them,
 * in memory otherwise. A limiter is made per quota value, since an intern's
 * quota is a setting that can change; a Redis outage falls back to this
 * instance's count (store/fixed-window.ts).
 */
export function turnLimiter(redis?: SharedRedis): TurnLimiter {
  const limiters = new Map<number, (key: string) => Promise<WindowDecision>>();
  const limiterFor = (points: number) => {
    let limiter = limiters.get(points);
    if (!limiter)
      limiters.set(points, (limiter = fixedWindow({ points, duration: 60, keyPrefix: `${TURN_LIMIT_PREFIX}:${points}` }, redis)));
    return limiter;
  };
  return async (internId, turnsPerMinute) => {
    if (turnsPerMinute === null) return { allowed: true };
    const decision = await limiterFor(turnsPerMinute)(internId);
    return decision.allowed ? decision : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)) };
  };
}

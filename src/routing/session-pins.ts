import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/**
 * Which provider served a session first, so that the session's later requests
 * go there too (spec 2.1 session_id). Scoped by organization: two customers'
 * equal session ids are different sessions. Stickiness is a preference, never
 * a reason to fail a request: a store that cannot answer means "no pin".
 */
export interface SessionPins {
  get(organizationId: string, sessionId: string): Promise<string | undefined>;
  /** Pins on first success only: a fallback does not move an existing pin. */
  pinIfAbsent(organizationId: string, sessionId: string, provider: string): Promise<void>;
}

const DEFAULT_TTL_MS = 60 * 60 * 1000;
const pinKey = (organizationId: string, sessionId: string) => `${organizationId}\u0000${sessionId}`;

/** Pins in this process's memory: one instance, or instances without Redis. */
export function memorySessionPins(options: { max?: number; ttlMs?: number } = {}): SessionPins {
  const pins = new LRUCache<string, string>({ max: options.max ?? 100_000, ttl: options.ttlMs ?? DEFAULT_TTL_MS, updateAgeOnGet: true });
  return {
    async get(organizationId, sessionId) {
      return pins.get(pinKey(organizationId, sessionId));
    },
    async pinIfAbsent(organizationId, sessionId, provider) {
      const key = pinKey(organizationId, sessionId);
      if (!pins.has(key)) pins.set(key, provider);
    },
  };
}

/** Pins shared by every instance through Redis (SET NX with an expiry). */
export function redisSessionPins(redis: Redis, options: { ttlMs?: number; prefix?: string } = {}): SessionPins {
  const ttlSeconds = Math.ceil((options.ttlMs ?? DEFAULT_TTL_MS) / 1000);
  const prefix = options.prefix ?? 'mg:pin:';
  return {
    async get(organizationId, sessionId) {
      try {
        return (await redis.get(prefix + pinKey(organizationId, sessionId))) ?? undefined;
      } catch {
        return undefined;
      }
    },
    async pinIfAbsent(organizationId, sessionId, provider) {
      try {
        await redis.set(prefix + pinKey(organizationId, sessionId), provider, 'EX', ttlSeconds, 'NX');
      } catch {
        // An unrecorded pin only costs stickiness.
      }
    },
  };
}

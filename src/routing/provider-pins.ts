import { LRUCache } from 'lru-cache';
import type { SharedRedis } from '../store/shared-redis.js';

/**
 * Which provider a key routes to, per organization: two customers' equal
 * keys are different keys. Two kinds: session pins (spec 2.1 session_id:
 * the provider that served a session first keeps it) and prompt-cache pins
 * (the provider that last served a conversation holds its cached prefix).
 * A pin is a preference, never a reason to fail a request: a store that
 * cannot answer means "no pin".
 */
export interface ProviderPins {
  get(organizationId: string, key: string): Promise<string | undefined>;
  pin(organizationId: string, key: string, provider: string): Promise<void>;
}

export interface PinKind {
  ttlMs: number;
  /**
   * Session pins keep the first provider (a fallback does not move a pin)
   * and live while the session is used; cache pins follow the latest
   * provider and live while it serves, as its cache does.
   */
  keepFirst: boolean;
  /** Redis key prefix. */
  prefix: string;
}

export const SESSION_PINS: PinKind = { ttlMs: 60 * 60 * 1000, keepFirst: true, prefix: 'mg:pin:' };

/** Providers keep a cached prompt prefix for minutes (Anthropic five by default, OpenAI five to ten of inactivity). */
export const CACHE_PINS: PinKind = { ttlMs: 5 * 60 * 1000, keepFirst: false, prefix: 'mg:cache:' };

const pinKey = (organizationId: string, key: string) => `${organizationId}\u0000${key}`;

/** Pins in this process's memory: one instance, or instances without Redis. */
export function memoryPins(kind: PinKind, options: { max?: number } = {}): ProviderPins {
  const pins = new LRUCache<string, string>({ max: options.max ?? 100_000, ttl: kind.ttlMs, updateAgeOnGet: kind.keepFirst });
  return {
    async get(organizationId, key) {
      return pins.get(pinKey(organizationId, key));
    },
    async pin(organizationId, key, provider) {
      const k = pinKey(organizationId, key);
      if (!kind.keepFirst || !pins.has(k)) pins.set(k, provider);
    },
  };
}

/**
 * Pins shared by every instance through Redis (SET with an expiry; NX for
 * pins that keep the first). While Redis does not answer, pins are kept and
 * read in this instance, so that a session still sticks to its provider
 * through an outage, at least on the instance that serves it.
 */
export function redisPins(redis: SharedRedis, kind: PinKind, options: { prefix?: string } = {}): ProviderPins {
  const ttlSeconds = Math.ceil(kind.ttlMs / 1000);
  const prefix = options.prefix ?? kind.prefix;
  const local = memoryPins(kind);
  return {
    async get(organizationId, key) {
      try {
        return (await redis.run((client) => client.get(prefix + pinKey(organizationId, key)))) ?? undefined;
      } catch {
        return local.get(organizationId, key);
      }
    },
    async pin(organizationId, key, provider) {
      const name = prefix + pinKey(organizationId, key);
      try {
        await redis.run((client) =>
          kind.keepFirst ? client.set(name, provider, 'EX', ttlSeconds, 'NX') : client.set(name, provider, 'EX', ttlSeconds),
        );
      } catch {
        await local.pin(organizationId, key, provider);
      }
    },
  };
}

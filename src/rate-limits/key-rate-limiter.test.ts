import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyRateLimiter } from './key-rate-limiter.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe('keyRateLimiter in memory', () => {
  it('allows requests_per_key per window, then says when to come back, per key', async () => {
    const allow = keyRateLimiter({ requests_per_key: 2, window_seconds: 60 });
    expect(await allow('a')).toEqual({ allowed: true });
    expect(await allow('a')).toEqual({ allowed: true });
    const refused = await allow('a');
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(await allow('b')).toEqual({ allowed: true });
  });
});

describe.skipIf(!redisUrl)('keyRateLimiter in Redis', () => {
  it('shares one count between instances', async () => {
    const first = new Redis(redisUrl!);
    const second = new Redis(redisUrl!);
    try {
      const key = `test-${randomUUID()}`;
      const one = keyRateLimiter({ requests_per_key: 3, window_seconds: 60 }, first);
      const two = keyRateLimiter({ requests_per_key: 3, window_seconds: 60 }, second);
      expect((await one(key)).allowed).toBe(true);
      expect((await two(key)).allowed).toBe(true);
      expect((await one(key)).allowed).toBe(true);
      expect((await two(key)).allowed).toBe(false);
    } finally {
      first.disconnect();
      second.disconnect();
    }
  });
});

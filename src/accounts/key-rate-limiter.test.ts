import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SharedRedis } from '../store/shared-redis.js';
import { silentOutageLog } from '../util/outage-log.js';
import { keyRateLimiter } from './key-rate-limiter.js';

const connect = (url: string) => new SharedRedis(url, { commandTimeoutMs: 1_000, outage: silentOutageLog() });

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
    const first = connect(redisUrl!);
    const second = connect(redisUrl!);
    await Promise.all([first.ready(5_000), second.ready(5_000)]);
    try {
      const key = `test-${randomUUID()}`;
      const one = keyRateLimiter({ requests_per_key: 3, window_seconds: 60 }, first);
      const two = keyRateLimiter({ requests_per_key: 3, window_seconds: 60 }, second);
      expect((await one(key)).allowed).toBe(true);
      expect((await two(key)).allowed).toBe(true);
      expect((await one(key)).allowed).toBe(true);
      expect((await two(key)).allowed).toBe(false);
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('keyRateLimiter while Redis is unreachable', () => {
  it('counts in this instance: the limit still holds, and no request fails', async () => {
    const down = connect('redis://127.0.0.1:1');
    try {
      const allow = keyRateLimiter({ requests_per_key: 2, window_seconds: 60 }, down);
      expect(await allow('a')).toEqual({ allowed: true });
      expect(await allow('a')).toEqual({ allowed: true });
      expect((await allow('a')).allowed).toBe(false);
    } finally {
      down.close();
    }
  });
});

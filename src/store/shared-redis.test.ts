import { BrokenCircuitError } from 'cockatiel';
import { describe, expect, it } from 'vitest';
import { outageLog } from '../util/outage-log.js';
import { SharedRedis } from './shared-redis.js';

const redisUrl = process.env.TEST_REDIS_URL;

function logged() {
  const lines: string[] = [];
  return {
    lines,
    logger: {
      warn: (_: object, message: string) => lines.push(`warn ${message}`),
      info: (message: string) => lines.push(`info ${message}`),
    },
  };
}

describe('SharedRedis', () => {
  it('fails at once while Redis is away, stops trying after a few failures, and says so once', async () => {
    const { lines, logger } = logged();
    const redis = new SharedRedis('redis://127.0.0.1:1', {
      commandTimeoutMs: 50,
      outage: outageLog(logger, 'Redis', 'this instance counts'),
    });
    try {
      expect(redis.available).toBe(false);
      const failures = await Promise.all(
        Array.from({ length: 5 }, () => redis.run((client) => client.get('k')).catch((error: unknown) => error)),
      );
      for (const failure of failures) expect(failure).toBeInstanceOf(Error);
      expect(await redis.run((client) => client.get('k')).catch((error: unknown) => error)).toBeInstanceOf(BrokenCircuitError);
      expect(lines.filter((line) => line.startsWith('warn'))).toEqual(['warn Redis is unavailable: this instance counts until it is back']);
    } finally {
      redis.close();
    }
  });

  it.skipIf(!redisUrl)('answers through run() once connected', async () => {
    const redis = new SharedRedis(redisUrl!, { commandTimeoutMs: 1_000, outage: outageLog(logged().logger, 'Redis', '') });
    try {
      expect(await redis.ready(5_000)).toBe(true);
      expect(redis.available).toBe(true);
      expect(await redis.run((client) => client.ping())).toBe('PONG');
    } finally {
      redis.close();
    }
  });
});

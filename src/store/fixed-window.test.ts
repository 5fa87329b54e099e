import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { silentOutageLog } from '../util/outage-log.js';
import { fixedWindow } from './fixed-window.js';
import { SharedRedis } from './shared-redis.js';

const redisUrl = process.env.TEST_REDIS_URL;

/** Two counts fit; one given back makes room for one more, and only one. */
async function givesBack(redis?: SharedRedis) {
  const window = fixedWindow({ points: 2, duration: 60, keyPrefix: `test:give-back:${randomUUID()}` }, redis);
  expect(await window('k')).toEqual({ allowed: true });
  expect(await window('k')).toEqual({ allowed: true });
  await window.giveBack('k');
  expect(await window('k')).toEqual({ allowed: true });
  expect((await window('k')).allowed).toBe(false);
  expect(await window('other')).toEqual({ allowed: true });
}

describe('fixedWindow.giveBack', () => {
  it('takes one count back in memory', async () => {
    await givesBack();
  });

  it.skipIf(!redisUrl)('takes one count back in Redis', async () => {
    const redis = new SharedRedis(redisUrl!, { commandTimeoutMs: 1_000, outage: silentOutageLog() });
    await redis.ready(5_000);
    try {
      await givesBack(redis);
    } finally {
      redis.close();
    }
  });
});

import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySessionPins, redisSessionPins, type SessionPins } from './session-pins.js';

const redisUrl = process.env.TEST_REDIS_URL;
const clients: Redis[] = [];
const stores: [string, () => SessionPins][] = [
  ['memory', () => memorySessionPins()],
  ...(redisUrl
    ? ([
        [
          'redis',
          () => {
            const redis = new Redis(redisUrl);
            clients.push(redis);
            return redisSessionPins(redis, { prefix: `mg-test:${Math.random().toString(36).slice(2)}:` });
          },
        ],
      ] as [string, () => SessionPins][])
    : []),
];

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
});

describe.each(stores)('session pins (%s)', (_, make) => {
  it('pins a session to its first provider, per organization', async () => {
    const pins = make();
    await pins.pinIfAbsent('org1', 's', 'a');
    await pins.pinIfAbsent('org1', 's', 'b');
    expect(await pins.get('org1', 's')).toBe('a');
    expect(await pins.get('org2', 's')).toBeUndefined();
  });
});

describe.skipIf(!redisUrl)('redis session pins', () => {
  it('are shared between instances', async () => {
    const prefix = `mg-test:${Math.random().toString(36).slice(2)}:`;
    const a = new Redis(redisUrl!);
    const b = new Redis(redisUrl!);
    clients.push(a, b);
    await redisSessionPins(a, { prefix }).pinIfAbsent('org', 'conv', 'beta');
    expect(await redisSessionPins(b, { prefix }).get('org', 'conv')).toBe('beta');
  });

  it('answer "no pin" when Redis is unreachable instead of failing the request', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    const pins = redisSessionPins(down);
    await pins.pinIfAbsent('org', 'conv', 'x');
    expect(await pins.get('org', 'conv')).toBeUndefined();
    down.disconnect();
  });
});

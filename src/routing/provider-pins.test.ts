import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_PINS, memoryPins, redisPins, SESSION_PINS, type PinKind, type ProviderPins } from './provider-pins.js';

const redisUrl = process.env.TEST_REDIS_URL;
const clients: Redis[] = [];
const testPrefix = () => `mg-test:${Math.random().toString(36).slice(2)}:`;

const stores: [string, (kind: PinKind) => ProviderPins][] = [
  ['memory', (kind) => memoryPins(kind)],
  ...(redisUrl
    ? ([
        [
          'redis',
          (kind) => {
            const redis = new Redis(redisUrl);
            clients.push(redis);
            return redisPins(redis, kind, { prefix: testPrefix() });
          },
        ],
      ] as [string, (kind: PinKind) => ProviderPins][])
    : []),
];

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
});

describe.each(stores)('provider pins (%s)', (_, make) => {
  it('session pins keep the first provider, per organization', async () => {
    const pins = make(SESSION_PINS);
    await pins.pin('org1', 's', 'a');
    await pins.pin('org1', 's', 'b');
    expect(await pins.get('org1', 's')).toBe('a');
    expect(await pins.get('org2', 's')).toBeUndefined();
  });

  it('cache pins follow the latest provider', async () => {
    const pins = make(CACHE_PINS);
    await pins.pin('org1', 'conv', 'a');
    await pins.pin('org1', 'conv', 'b');
    expect(await pins.get('org1', 'conv')).toBe('b');
  });
});

describe.skipIf(!redisUrl)('redis pins', () => {
  it('are shared between instances', async () => {
    const prefix = testPrefix();
    const a = new Redis(redisUrl!);
    const b = new Redis(redisUrl!);
    clients.push(a, b);
    await redisPins(a, SESSION_PINS, { prefix }).pin('org', 'conv', 'beta');
    expect(await redisPins(b, SESSION_PINS, { prefix }).get('org', 'conv')).toBe('beta');
  });

  it('answer "no pin" when Redis is unreachable instead of failing the request', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    const pins = redisPins(down, CACHE_PINS);
    await pins.pin('org', 'conv', 'x');
    expect(await pins.get('org', 'conv')).toBeUndefined();
    down.disconnect();
  });
});

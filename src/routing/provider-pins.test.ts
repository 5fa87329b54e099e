import { afterAll, describe, expect, it } from 'vitest';
import { SharedRedis } from '../store/shared-redis.js';
import { silentOutageLog } from '../util/outage-log.js';
import { CACHE_PINS, memoryPins, type PinKind, type ProviderPins, redisPins, SESSION_PINS } from './provider-pins.js';

const redisUrl = process.env.TEST_REDIS_URL;
const clients: SharedRedis[] = [];
const connect = (url: string) => {
  const redis = new SharedRedis(url, { commandTimeoutMs: 1_000, outage: silentOutageLog() });
  clients.push(redis);
  return redis;
};
const testPrefix = () => `mg-test:${Math.random().toString(36).slice(2)}:`;

const stores: [string, (kind: PinKind) => ProviderPins][] = [
  ['memory', (kind) => memoryPins(kind)],
  ...(redisUrl
    ? ([['redis', (kind) => redisPins(connect(redisUrl), kind, { prefix: testPrefix() })]] as [string, (kind: PinKind) => ProviderPins][])
    : []),
];

afterAll(() => {
  for (const client of clients) client.close();
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
    const a = connect(redisUrl!);
    const b = connect(redisUrl!);
    await Promise.all([a.ready(5_000), b.ready(5_000)]);
    await redisPins(a, SESSION_PINS, { prefix }).pin('org', 'conv', 'beta');
    expect(await redisPins(b, SESSION_PINS, { prefix }).get('org', 'conv')).toBe('beta');
  });
});

describe('redis pins without Redis', () => {
  it('are kept in this instance while Redis is unreachable, instead of failing the request or losing the pin', async () => {
    const pins = redisPins(connect('redis://127.0.0.1:1'), SESSION_PINS);
    await pins.pin('org', 'conv', 'x');
    await pins.pin('org', 'conv', 'y');
    expect(await pins.get('org', 'conv')).toBe('x');
  });
});

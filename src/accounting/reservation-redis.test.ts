import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpendAccount, spendLimits } from './reservation-limits.js';
import { RedisHolds } from './reservation-redis.js';
import type { StoredAccount } from './reservation-store.js';

const redisUrl = process.env.TEST_REDIS_URL;
const now = new Date('2026-11-21T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const hold = (id: string, amount: number, expiresAt = later(60_000).getTime()) => ({ id, amount, expiresAt });

describe.skipIf(!redisUrl)('RedisHolds', () => {
  let redis: Redis;
  let other: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl!);
    other = new Redis(redisUrl!);
  });
  afterAll(() => {
    redis.disconnect();
    other.disconnect();
  });

  /** Two instances' stores over one Redis, under a prefix of their own, reading accounts the test sets. */
  function pair(stored: Record<string, StoredAccount> = {}) {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const reads: string[] = [];
    const load = async (account: SpendAccount) => {
      reads.push(account.id);
      return stored[account.id] ?? { committed: 0, holds: [] };
    };
    return {
      a: new RedisHolds(redis, load, { prefix, idleMs: 60_000 }),
      b: new RedisHolds(other, load, { prefix, idleMs: 60_000 }),
      reads,
    };
  }
  const limits = spendLimits({ hash: 'k1', organization_id: 'o1', limit_usd: 1, limit_reset: null, include_byok_in_limit: 0 }, [], now);
  const account = limits[0]!.account.id;

  it('lets concurrent holds from two instances take the remaining money once, reading the account from the database once', async () => {
    const { a, b, reads } = pair({ [account]: { committed: 0.1, holds: [] } });
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).hold(limits, hold(`h${i}`, 0.018), now)));
    expect(results.filter((r) => r === undefined)).toHaveLength(Math.floor(0.9 / 0.018));
    expect(results.find((r) => r !== undefined)).toMatchObject({ limit: limits[0], committed: 0.1 });
    expect(reads.length).toBeLessThanOrEqual(2);
  });

  it('settles a stored hold by id with its BYOK usage on the accounts that count it (include_byok_in_limit) only', async () => {
    const counted = spendLimits({ hash: 'k2', organization_id: 'o1', limit_usd: 1, limit_reset: null, include_byok_in_limit: 1 }, [], now);
    const { a, b } = pair();
    expect(await a.hold(counted, { ...hold('job-2', 0.5), stored: true }, now)).toBeUndefined();
    expect(await a.hold(limits, { ...hold('job-1', 0.5), stored: true }, now)).toBeUndefined();
    await b.settleById('job-2', 0.1, 0.4);
    await b.settleById('job-1', 0.1, 0.4);
    expect(await a.hold(counted, hold('x', 0.6), now)).toMatchObject({ committed: 0.5, available: 0.5 });
    expect(await a.hold(limits, hold('y', 0.9), now)).toBeUndefined();
  });

  it('settles on one instance what the other held, lets an unsettled hold lapse, and ends a stored hold by id', async () => {
    const { a, b } = pair({
      [account]: { committed: 0, holds: [{ id: 'job-1', amount: 0.5, expiresAt: later(60_000).getTime(), stored: true }] },
    });
    expect(await a.hold(limits, hold('x', 0.3), now)).toBeUndefined();
    expect(await b.hold(limits, hold('y', 0.3, later(1000).getTime()), now)).toMatchObject({ available: 0.2 });
    await b.settle([account], 'x', 0.1);
    await a.settleById('job-1', 0.4);
    // Charged 0.5, nothing held: 0.5 left.
    expect(await b.hold(limits, hold('y', 0.5, later(1000).getTime()), now)).toBeUndefined();
    expect(await a.hold(limits, hold('z', 0.1), later(999))).toMatchObject({ committed: 0.5, available: 0 });
    // y was never settled: it lapses.
    expect(await a.hold(limits, hold('z', 0.5), later(1000))).toBeUndefined();
    await a.release([account], 'z');
    expect(await b.hold(limits, hold('w', 0.5), later(1000))).toBeUndefined();
  });
});

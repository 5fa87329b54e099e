import { describe, expect, it } from 'vitest';
import { ReservationBook } from './reservation-book.js';
import { type SpendAccount, type SpendLimit, spendLimits } from './reservation-limits.js';
import type { StoredAccount } from './reservation-store.js';

const now = new Date('2026-11-21T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const key = { hash: 'k1', organization_id: 'o1', limit_usd: 1, limit_reset: null, include_byok_in_limit: 0 };

/** A book over accounts whose stored state the test sets, counting the database reads. */
function bookOver(stored: Record<string, StoredAccount> = {}, refreshMs = 60_000) {
  const reads: string[] = [];
  const book = new ReservationBook(
    async (account: SpendAccount) => {
      reads.push(account.id);
      return stored[account.id] ?? { committed: 0, holds: [] };
    },
    { refreshMs },
  );
  return { book, reads };
}

const hold = (id: string, amount: number, expiresAt = later(60_000).getTime()) => ({ id, amount, expiresAt });

describe('ReservationBook', () => {
  const limits = spendLimits(key, [], now);
  const account = limits[0]!.account.id;

  it('holds what fits under the limit and refuses what does not, saying what is left', async () => {
    const { book } = bookOver({ [account]: { committed: 0.25, holds: [] } });
    expect(await book.hold(limits, hold('a', 0.5), now)).toBeUndefined();
    expect(await book.hold(limits, hold('b', 0.5), now)).toEqual({ limit: limits[0], committed: 0.25, available: 0.25 });
    expect(await book.hold(limits, hold('c', 0.25), now)).toBeUndefined();
  });

  it('lets concurrent holds take the remaining money once: no two succeed past the limit', async () => {
    const { book, reads } = bookOver();
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => book.hold(limits, hold(`h${i}`, 0.018), now)));
    expect(results.filter((r) => r === undefined)).toHaveLength(Math.floor(1 / 0.018));
    // Concurrent first uses share one read of the account.
    expect(reads).toEqual([account]);
  });

  it('turns a hold into its real cost on settlement, and frees it on release', async () => {
    const { book } = bookOver();
    await book.hold(limits, hold('a', 0.6), now);
    await book.settle([account], 'a', 0.1);
    // 0.9 left: 0.8 fits.
    expect(await book.hold(limits, hold('b', 0.8), now)).toBeUndefined();
    await book.release([account], 'b');
    expect(await book.hold(limits, hold('c', 0.9), now)).toBeUndefined();
    expect(await book.hold(limits, hold('d', 0.01), now)).toMatchObject({ committed: 0.1, available: 0 });
  });

  it('resizes a hold in place: its own earlier amount does not count against it', async () => {
    const { book } = bookOver();
    expect(await book.hold(limits, hold('a', 0.9), now)).toBeUndefined();
    expect(await book.hold(limits, hold('a', 1), now)).toBeUndefined();
    expect(await book.hold(limits, hold('a', 1.1), now)).toMatchObject({ available: 1 });
  });

  it('lets a hold that was never settled lapse at its expiry, charging nothing', async () => {
    const { book } = bookOver();
    await book.hold(limits, hold('crashed', 1, later(1000).getTime()), now);
    expect(await book.hold(limits, hold('b', 0.5), later(999))).toMatchObject({ available: 0 });
    expect(await book.hold(limits, hold('b', 1), later(1000))).toBeUndefined();
  });

  it('refuses a spent limit even for a request that costs nothing', async () => {
    const { book } = bookOver({ [account]: { committed: 1, holds: [] } });
    expect(await book.hold(limits, hold('free', 0), now)).toMatchObject({ committed: 1, available: 0 });
  });

  it('reads an account once, then answers from memory until it is old, and re-reads it without making a hold wait', async () => {
    const stored = { [account]: { committed: 0, holds: [] } as StoredAccount };
    const { book, reads } = bookOver(stored, 5000);
    await book.hold(limits, hold('a', 0.1), now);
    await book.settle([account], 'a', 0.1);
    await book.hold(limits, hold('b', 0.1), later(4000));
    expect(reads).toHaveLength(1);
    // Another writer charged 0.5 meanwhile (and this process's 0.1 and b are in the database too).
    stored[account] = { committed: 0.6, holds: [] };
    await book.hold(limits, hold('c', 0.1), later(5000));
    expect(reads).toHaveLength(2);
    await new Promise((resolve) => setImmediate(resolve));
    // 0.6 charged, b and c held: 0.2 left.
    expect(await book.hold(limits, hold('d', 0.3), later(5001))).toMatchObject({ committed: 0.6, available: 0.2 });
  });

  it('keeps the holds stored in the database (running video jobs) and settles them by id', async () => {
    const { book } = bookOver({
      [account]: { committed: 0, holds: [{ id: 'job-1', amount: 0.8, expiresAt: later(60_000).getTime(), stored: true }] },
    });
    expect(await book.hold(limits, hold('a', 0.5), now)).toMatchObject({ available: 0.2 });
    await book.settleById('job-1', 0.3);
    expect(await book.hold(limits, hold('a', 0.7), now)).toBeUndefined();
    expect(await book.hold(limits, hold('b', 0.01), now)).toMatchObject({ committed: 0.3, available: 0 });
  });

  it('settles a stored hold by id with its BYOK usage on the accounts that count it (include_byok_in_limit) only', async () => {
    const counted = spendLimits({ ...key, hash: 'k2', include_byok_in_limit: 1 }, [], now);
    const { book } = bookOver();
    expect(await book.hold(counted, { ...hold('job-2', 0.5), stored: true }, now)).toBeUndefined();
    expect(await book.hold(limits, { ...hold('job-1', 0.5), stored: true }, now)).toBeUndefined();
    await book.settleById('job-2', 0.1, 0.4);
    await book.settleById('job-1', 0.1, 0.4);
    expect(await book.hold(counted, hold('a', 0.6), now)).toMatchObject({ committed: 0.5, available: 0.5 });
    expect(await book.hold(limits, hold('b', 0.9), now)).toBeUndefined();
  });

  it('drops on a later read a stored hold the database no longer has (its job ended elsewhere), not one it made just before the read', async () => {
    const stored: Record<string, StoredAccount> = {
      [account]: { committed: 0, holds: [{ id: 'job-1', amount: 0.4, expiresAt: later(60_000).getTime(), stored: true }] },
    };
    const { book } = bookOver(stored, 5000);
    await book.hold(limits, hold('a', 0.1), now);
    // A job submitted here: held, its row not yet in what the next read returns.
    expect(await book.hold(limits, { ...hold('job-2', 0.4), stored: true }, later(4000))).toBeUndefined();
    stored[account] = { committed: 0.3, holds: [] };
    await book.hold(limits, hold('a', 0.1), later(5000));
    await new Promise((resolve) => setImmediate(resolve));
    // job-1 went (charged 0.3 elsewhere); job-2 and a are still held: 0.3 + 0.4 + 0.1.
    expect(await book.hold(limits, hold('b', 0.21), later(5001))).toMatchObject({ committed: 0.3, available: 0.2 });
  });

  it('holds on every account of every limit, and names the first limit that cannot cover the request', async () => {
    const budgetLimit: SpendLimit = { ...limits[0]!, limitUsd: 0.5, budget: { layer: 'api_key' } as SpendLimit['budget'] };
    const both = [budgetLimit, limits[0]!];
    const { book } = bookOver();
    expect(await book.hold(both, hold('a', 0.4), now)).toBeUndefined();
    expect(await book.hold(both, hold('b', 0.2), now)).toMatchObject({ limit: budgetLimit, available: 0.1 });
    expect(await book.hold(limits, hold('c', 0.6), now)).toBeUndefined();
  });
});

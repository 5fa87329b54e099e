import { roundUsd } from '../util/round-usd.js';
import type { SpendAccount, SpendLimit } from './reservation-limits.js';

/** USD held for a request in flight (or a video job not yet finished) until it settles, is released or expires (epoch ms). */
export interface Hold {
  id: string;
  amount: number;
  expiresAt: number;
  /** Also in the database (a running video job's): the database's copy wins when the account is read again. */
  stored?: boolean;
}

/** An account as the database has it: what was charged in its current window, and the holds stored there (running video jobs). */
export interface StoredAccount {
  committed: number;
  holds: readonly Hold[];
}

/** Reads an account from the database: once when first needed, then now and then to catch up with what others wrote. */
export type LoadAccount = (account: SpendAccount, now: Date) => Promise<StoredAccount>;

/** Where an account stood when a hold did not fit under one of its limits. */
export interface Shortfall {
  limit: SpendLimit;
  /** Charged in the window. */
  committed: number;
  /** What the limit leaves for this hold once the charges and the other holds are counted (≥ 0). */
  available: number;
}

/** Where holds are kept: this process (reservation-book.ts) or Redis, shared by every instance (reservation-redis.ts). */
export interface HoldStore {
  /**
   * Sets hold `hold.id` to `hold.amount` on every account of `limits` when
   * each limit still covers it (counting what was charged and every other
   * hold, not an earlier amount of this one); otherwise changes nothing and
   * says which limit fell short, the first in `limits`' order.
   */
  hold(limits: readonly SpendLimit[], hold: Hold, now: Date): Promise<Shortfall | undefined>;
  /** The hold becomes a charge of `cost` on each account (a charge is counted even when its hold has expired). */
  settle(accounts: readonly string[], id: string, cost: number): Promise<void>;
  /** The hold goes; nothing was charged. */
  release(accounts: readonly string[], id: string): Promise<void>;
  /**
   * settle() for a hold whose accounts the caller does not know: a video job
   * finished by whichever instance polled it; the accounts that count BYOK
   * usage are charged `byokCost` too.
   */
  settleById(id: string, cost: number, byokCost?: number): Promise<void>;
}

/**
 * The first limit of `limits` that `amount` does not fit under once each
 * account's charges and other holds are counted, if any. A spent limit
 * refuses even a request that costs nothing.
 */
export function firstShortfall(
  limits: readonly SpendLimit[],
  amount: number,
  standing: (account: SpendAccount) => { committed: number; held: number },
): Shortfall | undefined {
  for (const limit of limits) {
    const standingNow = standing(limit.account);
    // Charges summed here carry float noise (ten of $0.1 make $0.9999999999999999): rounded as each charge is.
    const committed = roundUsd(standingNow.committed);
    const available = roundUsd(limit.limitUsd - committed - standingNow.held);
    if (available < roundUsd(amount) || committed >= limit.limitUsd) return { limit, committed, available: Math.max(0, available) };
  }
  return undefined;
}

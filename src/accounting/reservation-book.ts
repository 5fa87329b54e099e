import { LRUCache } from 'lru-cache';
import { accountsOf, type SpendAccount, type SpendLimit } from './reservation-limits.js';
import { firstShortfall, type Hold, type HoldStore, type LoadAccount, type Shortfall, type StoredAccount } from './reservation-store.js';

/** One account as this process keeps it. */
class AccountLedger {
  committed: number;
  held = 0;
  readonly holds = new Map<string, Hold>();
  /** The earliest expiry among the holds: nothing to sweep before it. */
  nextExpiry = Infinity;
  loadedAt: number;
  /** While a reload reads the database: charges settled meanwhile, which its read may not have seen. */
  reloading: { settled: number } | undefined;
  /** When this process made each of its stored holds: one made just before a read may not be in the database yet. */
  readonly storedAt = new Map<string, number>();

  constructor(
    stored: StoredAccount,
    at: number,
    /** The account counts BYOK usage (include_byok_in_limit, include_byok_in_budgets). */
    readonly includeByok: boolean,
  ) {
    this.committed = stored.committed;
    this.loadedAt = at;
  }
}

export interface BookOptions {
  /** An account read longer ago than this is read again (in the background) at its next hold: what other writers charged. */
  refreshMs: number;
  /** Accounts kept; the least recently used beyond it are dropped. */
  maxAccounts?: number;
}

/**
 * The in-process ledger of reservations: each account's charges in its
 * window, read from the database once, then kept up to date by the
 * settlements made here, and the holds of the requests in flight. Checking a
 * limit and holding under it is one synchronous step, so concurrent requests
 * of this process can never both take the same remaining money. An account
 * is read again in the background every `refreshMs` (the request does not
 * wait) to catch up with charges made elsewhere; a hold that is never settled
 * expires, and a crash forgets them all.
 */
export class ReservationBook implements HoldStore {
  private readonly ledgers: LRUCache<string, AccountLedger>;
  private readonly loads = new Map<string, Promise<AccountLedger>>();
  /** The ledgers each hold is on, for settleById and for dropping an expired hold everywhere. */
  private readonly holders = new Map<string, Set<AccountLedger>>();

  constructor(
    private readonly load: LoadAccount,
    private readonly options: BookOptions,
  ) {
    this.ledgers = new LRUCache({ max: options.maxAccounts ?? 100_000 });
  }

  async hold(limits: readonly SpendLimit[], hold: Hold, now: Date): Promise<Shortfall | undefined> {
    const ledgers = new Map<string, AccountLedger>();
    for (const account of accountsOf(limits)) ledgers.set(account.id, await this.ledger(account, now));
    // From here on nothing awaits: the check and the hold are one step.
    for (const ledger of ledgers.values()) this.sweep(ledger, now.getTime());
    const shortfall = firstShortfall(limits, hold.amount, (account) => {
      const ledger = ledgers.get(account.id)!;
      return { committed: ledger.committed, held: ledger.held - (ledger.holds.get(hold.id)?.amount ?? 0) };
    });
    if (shortfall) return shortfall;
    for (const ledger of ledgers.values()) {
      this.put(ledger, hold);
      if (hold.stored) ledger.storedAt.set(hold.id, now.getTime());
    }
    return undefined;
  }

  async settle(accounts: readonly string[], id: string, cost: number): Promise<void> {
    this.settleOn(
      accounts.map((account) => this.ledgers.peek(account)),
      id,
      cost,
    );
  }

  async release(accounts: readonly string[], id: string): Promise<void> {
    for (const account of accounts) {
      const ledger = this.ledgers.peek(account);
      if (ledger) this.drop(ledger, id);
    }
    this.holders.delete(id);
  }

  async settleById(id: string, cost: number, byokCost = 0): Promise<void> {
    this.settleOn([...(this.holders.get(id) ?? [])], id, cost, byokCost);
  }

  private settleOn(ledgers: readonly (AccountLedger | undefined)[], id: string, cost: number, byokCost = 0): void {
    for (const ledger of ledgers) {
      if (!ledger) continue;
      this.drop(ledger, id);
      const charged = ledger.includeByok ? cost + byokCost : cost;
      ledger.committed += charged;
      if (ledger.reloading) ledger.reloading.settled += charged;
    }
    this.holders.delete(id);
  }

  /** The account's ledger, read on first use (concurrent first uses share the read) and refreshed in the background when old. */
  private async ledger(account: SpendAccount, now: Date): Promise<AccountLedger> {
    const known = this.ledgers.get(account.id);
    if (known) {
      if (now.getTime() - known.loadedAt >= this.options.refreshMs && !known.reloading) void this.reload(known, account, now);
      return known;
    }
    let loading = this.loads.get(account.id);
    if (!loading) {
      loading = this.load(account, now)
        .then((stored) => {
          const ledger = new AccountLedger(stored, now.getTime(), account.includeByok);
          for (const hold of stored.holds) this.put(ledger, hold);
          this.ledgers.set(account.id, ledger);
          return ledger;
        })
        .finally(() => this.loads.delete(account.id));
      this.loads.set(account.id, loading);
    }
    return loading;
  }

  /**
   * Reads the account again: its charges become the database's (plus what
   * was settled here during the read, which the read may have missed: counted
   * twice at worst, never missed), and its stored holds replace the ones
   * read before (a video job finished elsewhere lets its hold go), but for
   * those this process made within `refreshMs` before the read, which their
   * job's row may not have reached yet.
   */
  private async reload(ledger: AccountLedger, account: SpendAccount, now: Date): Promise<void> {
    ledger.reloading = { settled: 0 };
    const recent = now.getTime() - this.options.refreshMs;
    for (const [id, at] of ledger.storedAt) if (at < recent) ledger.storedAt.delete(id);
    try {
      const stored = await this.load(account, now);
      ledger.committed = stored.committed + ledger.reloading.settled;
      const current = new Set(stored.holds.map((hold) => hold.id));
      for (const hold of ledger.holds.values())
        if (hold.stored && !current.has(hold.id) && !ledger.storedAt.has(hold.id)) this.drop(ledger, hold.id);
      for (const hold of stored.holds) if (!ledger.holds.has(hold.id)) this.put(ledger, hold);
      ledger.loadedAt = now.getTime();
    } catch {
      // The database is away: keep counting from what this process knows, and try again at the next hold.
    } finally {
      ledger.reloading = undefined;
    }
  }

  private put(ledger: AccountLedger, hold: Hold): void {
    ledger.held += hold.amount - (ledger.holds.get(hold.id)?.amount ?? 0);
    ledger.holds.set(hold.id, hold);
    ledger.nextExpiry = Math.min(ledger.nextExpiry, hold.expiresAt);
    let holders = this.holders.get(hold.id);
    if (!holders) this.holders.set(hold.id, (holders = new Set()));
    holders.add(ledger);
  }

  private drop(ledger: AccountLedger, id: string): void {
    const hold = ledger.holds.get(id);
    if (!hold) return;
    ledger.holds.delete(id);
    ledger.held = ledger.holds.size === 0 ? 0 : ledger.held - hold.amount;
  }

  /** Drops the expired holds of a ledger (a request that never settled: its process crashed or lost it). */
  private sweep(ledger: AccountLedger, at: number): void {
    if (at < ledger.nextExpiry) return;
    ledger.nextExpiry = Infinity;
    for (const hold of [...ledger.holds.values()]) {
      if (hold.expiresAt <= at) {
        this.drop(ledger, hold.id);
        const holders = this.holders.get(hold.id);
        holders?.delete(ledger);
        if (holders?.size === 0) this.holders.delete(hold.id);
      } else ledger.nextExpiry = Math.min(ledger.nextExpiry, hold.expiresAt);
    }
  }
}

import { budgetChecks } from '../guardrails/guardrail-budget.js';
import type { GuardrailCache } from '../guardrails/guardrail-cache.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Clock } from '../util/clock.js';
import type { CostCeiling } from './reservation-ceiling.js';
import { accountsOf, type SpendLimit, spendLimits } from './reservation-limits.js';
import type { HoldStore, Shortfall } from './reservation-store.js';
import { spendRefusal } from './spend-limit.js';
import type { WorkspaceBudgets } from './workspace-budget-rules.js';

/** A ceiling, computed only for a key that has a limit to check it against (counting a prompt's tokens is not free). */
export type CeilingOf = () => CostCeiling | Promise<CostCeiling>;

/**
 * The most a request can cost, held against every limit of its key until it
 * ends. Settling or releasing twice, or after the other, does nothing.
 */
export interface Reservation {
  /** USD held now (0 for a key without limits). */
  readonly amount: number;
  /** Holds a new ceiling instead (a prompt a plugin grew, a further model call); refused as reserve() is, keeping the old hold. */
  resize(ceiling: CeilingOf): Promise<void>;
  /**
   * The request's ledger row is committed: the hold becomes its cost, plus,
   * on the accounts that count BYOK spend (include_byok_in_limit,
   * include_byok_in_budgets), its BYOK usage at the endpoint's prices.
   */
  settle(cost: number, byokCost?: number): Promise<void>;
  /** The request ended without a charge: the hold goes. */
  release(): Promise<void>;
}

/** The reservation of a key without limits: nothing held, nothing to do. */
export const NO_RESERVATION: Reservation = {
  amount: 0,
  resize: async () => undefined,
  settle: async () => undefined,
  release: async () => undefined,
};

export interface ReserveOptions {
  /** The hold's id: the generation's (or the video job's). */
  id: string;
  /** When the hold lapses if never settled; the service's hold time from now by default. */
  expiresAt?: number;
  /** The hold is also stored in the database (a video job's reserved_usd), and read back with the account. */
  stored?: boolean;
}

export interface SpendReservationsOptions {
  guardrails: GuardrailCache;
  /** An organization's total credits, from memory (credits/credits-cache.ts); null when it was granted none and has no balance to check. */
  credits?: (organizationId: string) => Promise<number | null>;
  /** The budgets of a key's workspace, from memory (workspace-budget-cache.ts); null when it has none. */
  workspaceBudgets?: (organizationId: string, workspaceId: string) => Promise<WorkspaceBudgets | null>;
  /** Where holds are kept: this process's book, or Redis shared by every instance. */
  store: HoldStore;
  /** Where holds go while `store` fails (Redis away): this process's book. */
  fallback?: HoldStore;
  clock: Clock;
  /** How long a request's hold lasts if it is never settled (its instance crashed): then it lapses, never charged. */
  holdMs: number;
  /** The store failed, after working (or at first): told once per outage, not per request; the requests go on with the fallback. */
  onStoreError?: (error: unknown) => void;
}

/**
 * Admission of paid work: before a request starts, the most it can cost is
 * held against its key's limit, its guardrail budgets, the organization's
 * (organization-wide guardrails), its workspace's budgets and the
 * organization's credit balance (when it was granted credits), all in one
 * step of the hold store; what a limit cannot cover is refused (402, or 403
 * for a spent budget) before any upstream call. The hold becomes the
 * real cost when the ledger row is written, and goes when nothing is charged.
 * A key with no limit and no budget holds nothing and pays for nothing here.
 */
export class SpendReservations {
  /** Whether the store failed since it last answered: its failures are told once. */
  private storeFailing = false;

  constructor(private readonly options: SpendReservationsOptions) {}

  async reserve(key: ApiKeyRow, ceilingOf: CeilingOf, { id, expiresAt, stored }: ReserveOptions): Promise<Reservation> {
    const now = this.options.clock();
    const guardrails = await this.options.guardrails.get(key.organization_id);
    const credits = this.options.credits ? await this.options.credits(key.organization_id) : null;
    const workspace = this.options.workspaceBudgets ? await this.options.workspaceBudgets(key.organization_id, key.workspace_id) : null;
    const limits = spendLimits(key, guardrails.empty ? [] : budgetChecks(guardrails.forKey(key), key), now, credits, workspace);
    if (limits.length === 0) return NO_RESERVATION;
    const ceiling = await ceilingOf();
    const hold = { id, amount: ceiling.usd, expiresAt: expiresAt ?? now.getTime() + this.options.holdMs, ...(stored ? { stored } : {}) };
    const { shortfall, store } = await this.hold(this.options.store, limits, hold, now);
    if (shortfall) throw spendRefusal(shortfall, ceiling, now);
    return new HeldReservation(this, store, limits, hold);
  }

  /**
   * Ends a stored hold whichever instance made it: a video job is finished by
   * whichever instance polled it; `byokCost` as settle()'s.
   */
  async settleById(id: string, cost: number, byokCost = 0): Promise<void> {
    await Promise.all(
      [this.options.store, this.options.fallback].map((store) => store && this.ended(store.settleById(id, cost, byokCost))),
    );
  }

  /** hold() on `store`, or on the fallback when the store fails. */
  async hold(
    store: HoldStore,
    limits: readonly SpendLimit[],
    hold: Parameters<HoldStore['hold']>[1],
    now: Date,
  ): Promise<{ shortfall: Shortfall | undefined; store: HoldStore }> {
    try {
      const shortfall = await store.hold(limits, hold, now);
      if (store !== this.options.fallback) this.storeFailing = false;
      return { shortfall, store };
    } catch (error) {
      const { fallback } = this.options;
      if (!fallback || store === fallback) throw error;
      this.failed(error);
      return { shortfall: await fallback.hold(limits, hold, now), store: fallback };
    }
  }

  /** A settlement or release that could not reach its store: the hold lapses by itself. */
  ended(work: Promise<void>): Promise<void> {
    return work.catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    if (!this.storeFailing) this.options.onStoreError?.(error);
    this.storeFailing = true;
  }

  get clock(): Clock {
    return this.options.clock;
  }
}

class HeldReservation implements Reservation {
  private done = false;
  private readonly accounts: string[];

  constructor(
    private readonly service: SpendReservations,
    private store: HoldStore,
    private readonly limits: readonly SpendLimit[],
    private hold: Parameters<HoldStore['hold']>[1],
  ) {
    this.accounts = accountsOf(limits).map((account) => account.id);
  }

  get amount(): number {
    return this.hold.amount;
  }

  async resize(ceilingOf: CeilingOf): Promise<void> {
    if (this.done) return;
    const ceiling = await ceilingOf();
    const now = this.service.clock();
    const hold = { ...this.hold, amount: ceiling.usd };
    const { shortfall, store } = await this.service.hold(this.store, this.limits, hold, now);
    if (shortfall) throw spendRefusal(shortfall, ceiling, now);
    this.store = store;
    this.hold = hold;
  }

  settle(cost: number, byokCost = 0): Promise<void> {
    if (this.done) return Promise.resolve();
    this.done = true;
    if (byokCost === 0) return this.service.ended(this.store.settle(this.accounts, this.hold.id, cost));
    const accounts = accountsOf(this.limits);
    const ids = (byok: boolean) => accounts.filter((account) => account.includeByok === byok).map((account) => account.id);
    return this.service.ended(
      Promise.all([this.store.settle(ids(true), this.hold.id, cost + byokCost), this.store.settle(ids(false), this.hold.id, cost)]).then(
        () => undefined,
      ),
    );
  }

  release(): Promise<void> {
    if (this.done) return Promise.resolve();
    this.done = true;
    return this.service.ended(this.store.release(this.accounts, this.hold.id));
  }
}

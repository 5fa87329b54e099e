import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { GuardrailCache } from '../guardrails/guardrail-cache.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { ReservationBook } from './reservation-book.js';
import { databaseAccounts } from './reservation-loads.js';
import { RedisHolds } from './reservation-redis.js';
import { SpendReservations } from './reservations.js';
import type { WorkspaceBudgets } from './workspace-budget-rules.js';

/** Settings of spend reservations (docs/api.md, "Spend limits and reservations"). */
export interface SpendSettings {
  /** Shares holds between instances; without it each instance keeps its own book. */
  redis?: Redis;
  /** A request's hold lapses this long after admission if it is never settled (a crashed instance's). */
  holdMs?: number;
  /** This instance re-reads an account it keeps (in the background) once it is older than this. */
  refreshMs?: number;
  /** An account in Redis nobody used for this long is dropped and read again from the database when next needed. */
  idleMs?: number;
  /** Spend charged but not yet in the database, per key (the ledger outbox's): counted as if it were. */
  unwritten?: () => ReadonlyMap<string, number>;
  /** An organization's total credits (null: none granted, no balance checked); without it, no organization's credits are checked. */
  credits?: (organizationId: string) => Promise<number | null>;
  /** A workspace's budgets (null: none); without it, no workspace budget is checked. */
  workspaceBudgets?: (organizationId: string, workspaceId: string) => Promise<WorkspaceBudgets | null>;
}

export const SPEND_DEFAULTS = { holdMs: 15 * 60_000, refreshMs: 5_000, idleMs: 10 * 60_000 } as const;

/**
 * The reservations of the app: holds in Redis when there is one (every
 * instance sees every hold; this process's book takes over while Redis
 * fails), else in this process's book over the database's counters.
 */
export function spendGuard(
  db: Kysely<Database>,
  guardrails: GuardrailCache,
  clock: Clock,
  settings: SpendSettings = {},
  onStoreError?: (error: unknown) => void,
): SpendReservations {
  const load = databaseAccounts(db, settings.unwritten);
  const book = new ReservationBook(load, { refreshMs: settings.refreshMs ?? SPEND_DEFAULTS.refreshMs });
  const redis = settings.redis ? new RedisHolds(settings.redis, load, { idleMs: settings.idleMs ?? SPEND_DEFAULTS.idleMs }) : undefined;
  return new SpendReservations({
    guardrails,
    ...(settings.credits ? { credits: settings.credits } : {}),
    ...(settings.workspaceBudgets ? { workspaceBudgets: settings.workspaceBudgets } : {}),
    store: redis ?? book,
    ...(redis ? { fallback: book } : {}),
    clock,
    holdMs: settings.holdMs ?? SPEND_DEFAULTS.holdMs,
    ...(onStoreError ? { onStoreError } : {}),
  });
}

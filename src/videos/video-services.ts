import type { Kysely } from 'kysely';
import type { LedgerExtra } from '../accounting/record-generation.js';
import type { SpendReservations } from '../accounting/reservations.js';
import type { CredentialCache } from '../byok/credential-cache.js';
import type { Catalog } from '../catalog/types.js';
import type { VideoAdapter } from '../protocol/adapters.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import type { PollPolicy } from './job-state.js';

/** What video jobs need; built once in app.ts. */
export interface VideoServices {
  db: Kysely<Database>;
  clock: Clock;
  catalog: Catalog;
  adapters: Readonly<Record<string, VideoAdapter>>;
  policy: PollPolicy;
  /** Holds what a job can cost against its key's limit and guardrail budgets from submission until it ends. */
  spend: SpendReservations;
  /** Draws of the price-weighted load balancing between endpoints; Math.random unless a test fixes it. */
  random?: () => number;
  /** BYOK credentials (byok/credential-cache.ts): a job goes out on one the key may use, as a chat does, and keeps it. */
  byok?: CredentialCache;
  /** The share of a BYOK job's price the gateway charges (BYOK_FEE_RATE; 0 when unset). */
  byokFeeRate?: number;
  /** What commits with a job's ledger row beside it: the observability destinations' outbox rows, as for every generation. */
  ledgerExtra?: LedgerExtra;
}

import type { Kysely } from 'kysely';
import type { LedgerExtra } from '../accounting/record-generation.js';
import type { SpendReservations } from '../accounting/reservations.js';
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
  /** What commits with a job's ledger row beside it: the observability destinations' outbox rows, as for every generation. */
  ledgerExtra?: LedgerExtra;
}

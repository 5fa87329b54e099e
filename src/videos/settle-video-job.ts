import type { Kysely } from 'kysely';
import { type LedgerExtra, recordGenerationsIn } from '../accounting/record-generation.js';
import { type JobRoute, updateLeasedVideoJob } from '../store/repositories/video-jobs.js';
import type { Database, GenerationRecord } from '../store/schema.js';
import type { JobChange } from './job-state.js';

/**
 * Stores a poll's result and releases the lease, only while `token` still
 * holds it; the ledger row (a completion's charge) commits in the same
 * transaction, so a job is charged exactly once even when a lease lapsed and
 * another instance polled it too, with `extra` (the destinations' outbox
 * rows). False when the lease was lost.
 */
export function settleVideoJob(
  db: Kysely<Database>,
  {
    id,
    token,
    change,
    charge,
    route,
    now,
    extra,
  }: { id: string; token: string; change: JobChange; charge: GenerationRecord | null; route?: JobRoute; now: Date; extra?: LedgerExtra },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const cost = charge ? { cost: charge.total_cost ?? 0 } : {};
    if (!(await updateLeasedVideoJob(trx, { id, token, change, ...cost, ...(route ? { route } : {}), now }))) return false;
    if (charge) await recordGenerationsIn(trx, [charge], now, [], extra);
    return true;
  });
}

import type { Store } from '../store/database.js';
import { foldNextUsageDay } from '../store/repositories/usage-daily.js';
import type { Clock } from '../util/clock.js';
import { PeriodicTask } from '../util/periodic-task.js';

/**
 * How long after a UTC day ends it is folded. A ledger commit adds a row of
 * an earlier day than its clock's to usage_daily itself (usage-rollup.ts), and
 * a row of the current day only to its hour: the delay is the margin for an
 * instance's clock behind the folder's, and for a commit built before
 * midnight that reaches the database after it.
 */
export const FOLD_DELAY_MS = 3_600_000;
/** Between looks for a day to fold: a day is folded within this of FOLD_DELAY_MS after it ends. */
const FOLD_EVERY_MS = 600_000;

/** Folds into usage_daily every day that ended FOLD_DELAY_MS before `now` and is not folded yet; the days folded. */
export async function foldUsageDays(store: Pick<Store, 'db' | 'engine'>, now: Date, signal?: AbortSignal): Promise<string[]> {
  const before = new Date(now.getTime() - FOLD_DELAY_MS).toISOString().slice(0, 10);
  const folded: string[] = [];
  for (;;) {
    if (signal?.aborted) return folded;
    const day = await foldNextUsageDay(store.db, store.engine, before);
    if (day === undefined) return folded;
    folded.push(day);
  }
}

/** Folds days as they end, off the request path, while the server runs (any instance may: they take turns). */
export const usageDayFolder = (store: Pick<Store, 'db' | 'engine'>, clock: Clock, onError: (error: unknown) => void) =>
  new PeriodicTask(async (signal) => void (await foldUsageDays(store, clock(), signal)), { everyMs: FOLD_EVERY_MS, onError });

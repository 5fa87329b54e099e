import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database, GenerationsTable } from '../store/schema.js';
import { usagePeriodsAt } from '../accounts/usage-periods.js';
import { insertGenerations } from './insert-generations.js';

export type GenerationRecord = Insertable<GenerationsTable>;

/**
 * Writes ledger rows and adds their costs to their keys' counters in one
 * transaction: a recorded charge and the spend it counts toward never part.
 * Costs are summed per key first, so a batch costs one update per key.
 * Each period counter restarts when the stored period is not the current one.
 */
export async function recordGenerations(db: Kysely<Database>, rows: readonly GenerationRecord[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute((trx) => recordGenerationsIn(trx, rows, now));
}

/** recordGenerations inside the caller's transaction, for a charge that must commit with other changes (a video job's end). */
export async function recordGenerationsIn(trx: Transaction<Database>, rows: readonly GenerationRecord[], now: Date): Promise<void> {
  const p = usagePeriodsAt(now);
  const costs = new Map<string, number>();
  for (const row of rows) {
    const cost = row.total_cost ?? 0;
    if (cost !== 0) costs.set(row.api_key_hash, (costs.get(row.api_key_hash) ?? 0) + cost);
  }
  await insertGenerations(trx, rows);
  for (const [hash, cost] of costs) {
    await trx
      .updateTable('api_keys')
      .set({
        usage: sql`usage + ${cost}`,
        ...rollingCounter('daily', p.daily, cost),
        ...rollingCounter('weekly', p.weekly, cost),
        ...rollingCounter('monthly', p.monthly, cost),
      })
      .where('hash', '=', hash)
      .execute();
  }
}

export const recordGeneration = (db: Kysely<Database>, row: GenerationRecord, now: Date): Promise<void> =>
  recordGenerations(db, [row], now);

/**
 * Adds to a period's counter, restarting it (and the BYOK counter that shares
 * its period column) when the stored period is over.
 */
function rollingCounter(name: 'daily' | 'weekly' | 'monthly', period: string, cost: number) {
  const column = sql.ref(`usage_${name}`);
  const byok = sql.ref(`byok_usage_${name}`);
  const periodColumn = sql.ref(`usage_${name}_period`);
  return {
    [`usage_${name}`]: sql<number>`CASE WHEN ${periodColumn} = ${period} THEN ${column} + ${cost} ELSE ${cost} END`,
    [`byok_usage_${name}`]: sql<number>`CASE WHEN ${periodColumn} = ${period} THEN ${byok} ELSE 0 END`,
    [`usage_${name}_period`]: period,
  };
}

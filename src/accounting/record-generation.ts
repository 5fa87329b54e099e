import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, GenerationsTable } from '../store/schema.js';
import { usagePeriodsAt } from '../accounts/usage-periods.js';

export type GenerationRecord = Insertable<GenerationsTable>;

/**
 * Writes the ledger row and adds its cost to the key's counters in one
 * transaction: a recorded charge and the spend it counts toward never part.
 * Each period counter restarts when the stored period is not the current one.
 */
export async function recordGeneration(db: Kysely<Database>, row: GenerationRecord, now: Date): Promise<void> {
  const p = usagePeriodsAt(now);
  const cost = row.total_cost ?? 0;
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('generations').values(row).execute();
    if (cost === 0) return;
    await trx
      .updateTable('api_keys')
      .set({
        usage: sql`usage + ${cost}`,
        ...rollingCounter('daily', p.daily, cost),
        ...rollingCounter('weekly', p.weekly, cost),
        ...rollingCounter('monthly', p.monthly, cost),
      })
      .where('hash', '=', row.api_key_hash)
      .execute();
  });
}

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

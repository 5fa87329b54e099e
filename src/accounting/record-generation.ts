import { type CompiledQuery, type Kysely, sql, type Transaction } from 'kysely';
import { usagePeriodsAt } from '../accounts/usage-periods.js';
import { compiledOnce } from '../store/compiled-once.js';
import type { Database, GenerationContentRecord, GenerationRecord } from '../store/schema.js';
import { insertGenerationsQuery } from './insert-generations.js';
import { rollupStatements } from './usage-rollup.js';

/** Commits a batch of rows, and the contents stored with some of them, in one transaction (recordGenerations over a database). */
export type WriteGenerations = (
  rows: readonly GenerationRecord[],
  now: Date,
  contents?: readonly GenerationContentRecord[],
) => Promise<void>;

/**
 * Writes ledger rows and adds their costs to their keys' counters in one
 * transaction: a recorded charge and the spend it counts toward never part.
 */
export async function recordGenerations(
  db: Kysely<Database>,
  rows: readonly GenerationRecord[],
  now: Date,
  contents: readonly GenerationContentRecord[] = [],
): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute((trx) => recordGenerationsIn(trx, rows, now, contents));
}

/** recordGenerations inside the caller's transaction, for a charge that must commit with other changes (a video job's end). */
export async function recordGenerationsIn(
  trx: Transaction<Database>,
  rows: readonly GenerationRecord[],
  now: Date,
  contents: readonly GenerationContentRecord[] = [],
): Promise<void> {
  for (const query of ledgerStatements(trx, rows, now, rows.length, contents)) await trx.executeQuery(query);
}

export const recordGeneration = (db: Kysely<Database>, row: GenerationRecord, now: Date): Promise<void> =>
  recordGenerations(db, [row], now);

/**
 * The statements that record a batch, to run in one transaction: the rows'
 * INSERTs (`rowsPerInsert` rows each, all in one by default), then one update
 * per key of its summed cost (each period counter restarts when the stored
 * period is not the current one), then the rollups' upserts (usage-rollup.ts),
 * then the contents stored with some of the rows (generation_contents).
 */
export function ledgerStatements(
  db: Kysely<Database>,
  rows: readonly GenerationRecord[],
  now: Date,
  rowsPerInsert = rows.length,
  contents: readonly GenerationContentRecord[] = [],
): CompiledQuery[] {
  const statements: CompiledQuery[] = [];
  for (let i = 0; i < rows.length; i += rowsPerInsert) statements.push(insertGenerationsQuery(db, rows.slice(i, i + rowsPerInsert)));
  statements.push(...chargeStatements(db, rows, now), ...rollupStatements(db, rows, now));
  for (const content of contents)
    statements.push(insertContent(db, { ...content, completion: content.completion ?? null, reasoning: content.reasoning ?? null }));
  return statements;
}

const insertContent = compiledOnce(
  'generation-content-insert',
  ['generation_id', 'organization_id', 'input', 'completion', 'reasoning', 'truncated', 'created_at'],
  (db, v) => db.insertInto('generation_contents').values(v),
);

/** The updates that add `rows`' costs to their keys' counters: one per key, none for rows that cost nothing. */
export function chargeStatements(
  db: Kysely<Database>,
  rows: readonly Pick<GenerationRecord, 'api_key_hash' | 'total_cost'>[],
  now: Date,
): CompiledQuery[] {
  const costs = new Map<string, number>();
  for (const row of rows) {
    const cost = row.total_cost ?? 0;
    if (cost !== 0) costs.set(row.api_key_hash, (costs.get(row.api_key_hash) ?? 0) + cost);
  }
  if (costs.size === 0) return [];
  const periods = usagePeriodsAt(now);
  return Array.from(costs, ([hash, cost]) => keyUsageUpdate(db, { hash, cost, ...periods }));
}

const keyUsageUpdate = compiledOnce('key-usage-update', ['hash', 'cost', 'daily', 'weekly', 'monthly'], (db, v) =>
  db
    .updateTable('api_keys')
    .set({
      usage: sql`usage + ${v.cost}`,
      ...rollingCounter('daily', v.daily, v.cost),
      ...rollingCounter('weekly', v.weekly, v.cost),
      ...rollingCounter('monthly', v.monthly, v.cost),
    })
    .where('hash', '=', v.hash),
);

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

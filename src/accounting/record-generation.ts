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
 * Statements that commit with a batch of ledger rows, decided from memory: the
 * observability destinations' outbox rows (destinations/destination-cache.ts).
 */
export type LedgerExtra = (db: Kysely<Database>, rows: readonly GenerationRecord[], now: Date) => CompiledQuery | undefined;

/**
 * Writes ledger rows and adds their costs to their keys' counters in one
 * transaction: a recorded charge and the spend it counts toward never part.
 */
export async function recordGenerations(
  db: Kysely<Database>,
  rows: readonly GenerationRecord[],
  now: Date,
  contents: readonly GenerationContentRecord[] = [],
  extra?: LedgerExtra,
): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const query of ledgerStatements(trx, rows, now, rows.length, contents, extra)) await trx.executeQuery(query);
  });
}

/** recordGenerations inside the caller's transaction, for a charge that must commit with other changes (a video job's end). */
export async function recordGenerationsIn(
  trx: Transaction<Database>,
  rows: readonly GenerationRecord[],
  now: Date,
  contents: readonly GenerationContentRecord[] = [],
  extra?: LedgerExtra,
): Promise<void> {
  for (const query of ledgerStatements(trx, rows, now, rows.length, contents, extra)) await trx.executeQuery(query);
}

export const recordGeneration = (db: Kysely<Database>, row: GenerationRecord, now: Date): Promise<void> =>
  recordGenerations(db, [row], now);

/**
 * The statements that record a batch, to run in one transaction: the rows'
 * INSERTs (`rowsPerInsert` rows each, all in one by default), then one update
 * per key of its summed cost (each period counter restarts when the stored
 * period is not the current one), then the rollups' upserts (usage-rollup.ts),
 * then the contents stored with some of the rows (generation_contents), then
 * `extra`'s statement (the destinations' outbox), if any.
 */
export function ledgerStatements(
  db: Kysely<Database>,
  rows: readonly GenerationRecord[],
  now: Date,
  rowsPerInsert = rows.length,
  contents: readonly GenerationContentRecord[] = [],
  extra?: LedgerExtra,
): CompiledQuery[] {
  const statements: CompiledQuery[] = [];
  for (let i = 0; i < rows.length; i += rowsPerInsert) statements.push(insertGenerationsQuery(db, rows.slice(i, i + rowsPerInsert)));
  statements.push(...chargeStatements(db, rows, now), ...rollupStatements(db, rows, now));
  for (const content of contents)
    statements.push(insertContent(db, { ...content, completion: content.completion ?? null, reasoning: content.reasoning ?? null }));
  const more = extra?.(db, rows, now);
  if (more) statements.push(more);
  return statements;
}

const insertContent = compiledOnce(
  'generation-content-insert',
  ['generation_id', 'organization_id', 'input', 'completion', 'reasoning', 'truncated', 'created_at'],
  (db, v) => db.insertInto('generation_contents').values(v),
);

/**
 * The statements that add `rows`' costs to their keys' counters and to their
 * workspaces' (workspace_usage, what workspace budgets are checked against):
 * one per key and one per workspace, none for rows that cost nothing.
 */
export function chargeStatements(
  db: Kysely<Database>,
  rows: readonly Pick<GenerationRecord, 'api_key_hash' | 'workspace_id' | 'total_cost' | 'byok_cost'>[],
  now: Date,
): CompiledQuery[] {
  const keys = new Map<string, Spent>();
  const workspaces = new Map<string, Spent>();
  const add = (sums: Map<string, Spent>, id: string, cost: number, byok: number) => {
    const sum = sums.get(id) ?? { cost: 0, byok: 0 };
    sums.set(id, { cost: sum.cost + cost, byok: sum.byok + byok });
  };
  for (const row of rows) {
    const cost = row.total_cost ?? 0;
    const byok = row.byok_cost ?? 0;
    if (cost === 0 && byok === 0) continue;
    add(keys, row.api_key_hash, cost, byok);
    add(workspaces, row.workspace_id, cost, byok);
  }
  if (keys.size === 0) return [];
  const periods = usagePeriodsAt(now);
  return [
    ...Array.from(keys, ([hash, spent]) => keyUsageUpdate(db, { hash, ...spent, ...periods })),
    ...Array.from(workspaces, ([workspace_id, spent]) => workspaceUsageUpsert(db, { workspace_id, ...spent, ...periods })),
  ];
}

/** What a batch adds to one key or workspace: its charge, and its BYOK usage at the endpoints' prices. */
interface Spent {
  cost: number;
  byok: number;
}

const keyUsageUpdate = compiledOnce('key-usage-update', ['hash', 'cost', 'byok', 'daily', 'weekly', 'monthly'], (db, v) =>
  db
    .updateTable('api_keys')
    .set({
      usage: sql`usage + ${v.cost}`,
      byok_usage: sql`byok_usage + ${v.byok}`,
      ...rollingCounter('daily', v.daily, v.cost, v.byok),
      ...rollingCounter('weekly', v.weekly, v.cost, v.byok),
      ...rollingCounter('monthly', v.monthly, v.cost, v.byok),
    })
    .where('hash', '=', v.hash),
);

const workspaceUsageUpsert = compiledOnce(
  'workspace-usage-upsert',
  ['workspace_id', 'cost', 'byok', 'daily', 'weekly', 'monthly'],
  (db, v) =>
    db
      .insertInto('workspace_usage')
      .values({
        workspace_id: v.workspace_id,
        usage: v.cost,
        usage_daily: v.cost,
        usage_daily_period: v.daily,
        usage_weekly: v.cost,
        usage_weekly_period: v.weekly,
        usage_monthly: v.cost,
        usage_monthly_period: v.monthly,
        byok_usage: v.byok,
        byok_usage_daily: v.byok,
        byok_usage_weekly: v.byok,
        byok_usage_monthly: v.byok,
      })
      .onConflict((conflict) =>
        conflict.column('workspace_id').doUpdateSet({
          usage: sql`workspace_usage.usage + ${v.cost}`,
          byok_usage: sql`workspace_usage.byok_usage + ${v.byok}`,
          ...rollingCounter('daily', v.daily, v.cost, v.byok, 'workspace_usage.'),
          ...rollingCounter('weekly', v.weekly, v.cost, v.byok, 'workspace_usage.'),
          ...rollingCounter('monthly', v.monthly, v.cost, v.byok, 'workspace_usage.'),
        }),
      ),
);

/**
 * Adds to a period's counter and to its BYOK counter (they share the period
 * column), restarting both when the stored period is over. `table` qualifies the
 * stored columns where an upsert's `excluded` row would make them ambiguous.
 */
function rollingCounter(name: 'daily' | 'weekly' | 'monthly', period: string, cost: number, byokCost: number, table = '') {
  const column = sql.ref(`${table}usage_${name}`);
  const byok = sql.ref(`${table}byok_usage_${name}`);
  const periodColumn = sql.ref(`${table}usage_${name}_period`);
  return {
    [`usage_${name}`]: sql<number>`CASE WHEN ${periodColumn} = ${period} THEN ${column} + ${cost} ELSE ${cost} END`,
    [`byok_usage_${name}`]: sql<number>`CASE WHEN ${periodColumn} = ${period} THEN ${byok} + ${byokCost} ELSE ${byokCost} END`,
    [`usage_${name}_period`]: period,
  };
}

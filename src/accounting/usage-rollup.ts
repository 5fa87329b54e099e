import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { compiledOnce } from '../store/compiled-once.js';
import { bucketColumn, emptySketches } from '../store/latency-sketch.js';
import type { Database, GenerationRecord, UsageHourlyTable } from '../store/schema.js';
import { USAGE_SUMS } from '../store/usage-sums.js';
import { datasetRollupStatements } from './dataset-rollup.js';

type RolledRow = Pick<
  GenerationRecord,
  | 'organization_id'
  | 'workspace_id'
  | 'api_key_hash'
  | 'model'
  | 'provider_name'
  | 'created_at'
  | 'status'
  | 'error_code'
  | 'latency_ms'
  | 'ttft_ms'
  | 'total_cost'
  | 'tokens_prompt'
  | 'tokens_completion'
  | 'tokens_reasoning'
  | 'tokens_cached'
  | 'session_id'
  | 'origin'
  | 'app_title'
  | 'finish_reason'
>;

/** The columns that name a row of usage_hourly and usage_daily with their time column (their primary keys), then the sums a ledger row adds to. */
const KEY = ['organization_id', 'workspace_id', 'api_key_hash', 'model', 'provider_name'] as const;
const SUMS = USAGE_SUMS;
type Sums = Omit<UsageHourlyTable, 'hour'>;

const addedSums = (table: 'usage_hourly' | 'usage_daily') =>
  Object.fromEntries(SUMS.map((name) => [name, sql`${sql.ref(`${table}.${name}`)} + ${sql.ref(`excluded.${name}`)}`]));

const addToHour = compiledOnce('usage-hourly-upsert', ['hour', ...KEY, ...SUMS], (db, v) =>
  db
    .insertInto('usage_hourly')
    .values(v)
    .onConflict((conflict) => conflict.columns(['hour', ...KEY]).doUpdateSet(addedSums('usage_hourly'))),
);

const addToDay = compiledOnce('usage-daily-upsert', ['day', ...KEY, ...SUMS], (db, v) =>
  db
    .insertInto('usage_daily')
    .values(v)
    .onConflict((conflict) => conflict.columns(['day', ...KEY]).doUpdateSet(addedSums('usage_daily'))),
);

const addToOrganization = compiledOnce('organization-usage-upsert', ['organization_id', 'usage'], (db, v) =>
  db
    .insertInto('organization_usage')
    .values(v)
    .onConflict((conflict) => conflict.column('organization_id').doUpdateSet({ usage: sql`organization_usage.usage + excluded.usage` })),
);

/** A 4xx: the request was refused for the client's own doing. A failure without a status counts with the 5xx. */
const isClientError = (code: number | null | undefined) => code != null && code >= 400 && code < 500;

/** The rows' sums by their created_at cut to `length` characters (13: the hour, 10: the day) and the other key columns. */
function sumsBy(rows: readonly RolledRow[], length: number): Map<string, { at: string; sums: Sums }> {
  const buckets = new Map<string, { at: string; sums: Sums }>();
  for (const row of rows) {
    const at = row.created_at.slice(0, length);
    const provider = row.provider_name ?? '';
    const id = `${row.organization_id}\u0000${at}\u0000${row.workspace_id}\u0000${row.api_key_hash}\u0000${row.model}\u0000${provider}`;
    let bucket = buckets.get(id);
    if (!bucket) {
      bucket = {
        at,
        sums: {
          organization_id: row.organization_id,
          workspace_id: row.workspace_id,
          api_key_hash: row.api_key_hash,
          model: row.model,
          provider_name: provider,
          requests: 0,
          errors: 0,
          errors_4xx: 0,
          errors_5xx: 0,
          tokens_prompt: 0,
          tokens_completion: 0,
          tokens_reasoning: 0,
          tokens_cached: 0,
          cost: 0,
          latency_ms_sum: 0,
          latency_count: 0,
          ...emptySketches(),
        },
      };
      buckets.set(id, bucket);
    }
    const sums = bucket.sums;
    sums.requests += 1;
    if (row.status === 'error') {
      sums.errors += 1;
      if (isClientError(row.error_code)) sums.errors_4xx += 1;
      else sums.errors_5xx += 1;
    }
    sums.tokens_prompt += row.tokens_prompt ?? 0;
    sums.tokens_completion += row.tokens_completion ?? 0;
    sums.tokens_reasoning += row.tokens_reasoning ?? 0;
    sums.tokens_cached += row.tokens_cached ?? 0;
    sums.cost += row.total_cost ?? 0;
    if (row.latency_ms != null) {
      sums.latency_ms_sum += row.latency_ms;
      sums.latency_count += 1;
      sums[bucketColumn('latency', row.latency_ms)] += 1;
    }
    if (row.ttft_ms != null) sums[bucketColumn('ttft', row.ttft_ms)] += 1;
  }
  return buckets;
}

/** A row of a day before `now`'s UTC day: one whose day usage-day-folds.ts may have folded already. */
const ofAnEarlierDay = (row: RolledRow, today: string) => row.created_at.slice(0, 10) < today;

/**
 * The upserts that add a batch of ledger rows to the rollups, to run in the
 * batch's transaction: one per hour bucket (organization, UTC hour,
 * workspace, key, model, provider) the rows fall in, and one per
 * organization whose rows cost something (migration 0021). usage_daily is
 * not kept here (that upsert cost every commit, bench/ledger-cost.ts): a day
 * is folded from its hours once it is over (usage-day-folds.ts). Only a row
 * of an earlier day than `now`'s (a long job that started before midnight,
 * a row replayed from the outbox) is added to its day too, after its hour, in
 * case that day was folded already; a day that was not is folded again from
 * its hours, so the addition never counts twice. The datasets' rollups
 * (dataset-rollup.ts) go in the same batch.
 */
export function rollupStatements(db: Kysely<Database>, rows: readonly RolledRow[], now: Date): CompiledQuery[] {
  const statements: CompiledQuery[] = [];
  for (const { at, sums } of sumsBy(rows, 13).values()) statements.push(addToHour(db, { ...sums, hour: at }));
  const today = now.toISOString().slice(0, 10);
  const late = rows.filter((row) => ofAnEarlierDay(row, today));
  for (const { at, sums } of sumsBy(late, 10).values()) statements.push(addToDay(db, { ...sums, day: at }));
  const spent = new Map<string, number>();
  for (const row of rows) {
    const cost = row.total_cost ?? 0;
    if (cost !== 0) spent.set(row.organization_id, (spent.get(row.organization_id) ?? 0) + cost);
  }
  for (const [organization_id, usage] of spent) statements.push(addToOrganization(db, { organization_id, usage }));
  statements.push(...datasetRollupStatements(db, rows));
  return statements;
}

import { CompiledQuery, type Kysely } from 'kysely';
import { perDialect } from '../store/compiled-once.js';
import type { Database, GenerationRecord, GenerationsTable } from '../store/schema.js';

/** Every column of a ledger row, in the order the cached statements bind them. */
const COLUMNS = [
  'id',
  'organization_id',
  'workspace_id',
  'api_key_hash',
  'request_id',
  'upstream_id',
  'model',
  'provider_name',
  'upstream_model',
  'app_id',
  'external_user',
  'user_hash',
  'session_id',
  'api_type',
  'status',
  'streamed',
  'cancelled',
  'finish_reason',
  'native_finish_reason',
  'service_tier',
  'tokens_prompt',
  'tokens_completion',
  'tokens_cached',
  'tokens_cache_write',
  'tokens_reasoning',
  'total_cost',
  'cache_discount',
  'latency_ms',
  'ttft_ms',
  'generation_time_ms',
  'error_code',
  'error_name',
  'error_message',
  'routing',
  'origin',
  'app_title',
  'user_agent',
  'created_at',
  'parent_generation_id',
  'intern_run_id',
  'usage_estimated',
  'is_byok',
  'byok_cost',
] as const satisfies readonly (keyof GenerationsTable)[];

// The database fills these when a row leaves them out; a bound NULL would not.
const DEFAULTS: Partial<Record<(typeof COLUMNS)[number], number>> = {
  tokens_prompt: 0,
  tokens_completion: 0,
  tokens_cached: 0,
  tokens_cache_write: 0,
  tokens_reasoning: 0,
  total_cost: 0,
  usage_estimated: 0,
  is_byok: 0,
  byok_cost: 0,
};

/**
 * The SQL of a multi-row INSERT of `count` ledger rows, built by Kysely once
 * per dialect and row count: the SQL only depends on the count.
 */
const insertSql = (db: Kysely<Database>, count: number): string =>
  perDialect(db, `insert-generations:${count}`, () => {
    const template = Object.fromEntries(COLUMNS.map((c) => [c, 'x'])) as unknown as GenerationRecord;
    return db
      .insertInto('generations')
      .values(Array.from({ length: count }, () => template))
      .compile().sql;
  });

/** The INSERT of `rows`, compiled for `db`'s dialect. */
export function insertGenerationsQuery(db: Kysely<Database>, rows: readonly GenerationRecord[]): CompiledQuery {
  const parameters: unknown[] = [];
  for (const row of rows) for (const column of COLUMNS) parameters.push(row[column] ?? DEFAULTS[column] ?? null);
  return CompiledQuery.raw(insertSql(db, rows.length), parameters);
}

export async function insertGenerations(db: Kysely<Database>, rows: readonly GenerationRecord[]): Promise<void> {
  await db.executeQuery(insertGenerationsQuery(db, rows));
}

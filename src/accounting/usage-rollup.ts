import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { compiledOnce } from '../store/compiled-once.js';
import type { Database, GenerationRecord, UsageHourlyTable } from '../store/schema.js';

type RolledRow = Pick<
  GenerationRecord,
  'organization_id' | 'workspace_id' | 'api_key_hash' | 'model' | 'provider_name' | 'created_at' | 'status' | 'latency_ms' | 'total_cost' | 'tokens_prompt' | 'tokens_completion' | 'tokens_reasoning' | 'tokens_cached'
>;

/** The columns that name a row of usage_hourly (its primary key), then the sums a ledger row adds to. */
const KEY = ['organization_id', 'hour', 'workspace_id', 'api_key_hash', 'model', 'provider_name'] as const;
const SUMS = ['requests', 'errors', 'tokens_prompt', 'tokens_completion', 'tokens_reasoning', 'tokens_cached', 'cost', 'latency_ms_sum', 'latency_count'] as const;

const addToHour = compiledOnce('usage-hourly-upsert', [...KEY, ...SUMS], (db, v) =>
  db
    .insertInto('usage_hourly')
    .values(v)
    .onConflict((conflict) =>
      conflict.columns([...KEY]).doUpdateSet(Object.fromEntries(SUMS.map((name) => [name, sql`${sql.ref(`usage_hourly.${name}`)} + ${sql.ref(`excluded.${name}`)}`]))),
    ),
);

const addToOrganization = compiledOnce('organization-usage-upsert', ['organization_id', 'usage'], (db, v) =>
  db
    .insertInto('organization_usage')
    .values(v)
    .onConflict((conflict) => conflict.column('organization_id').doUpdateSet({ usage: sql`organization_usage.usage + excluded.usage` })),
);

/**
 * The upserts that add a batch of ledger rows to the rollups, to run in the
 * batch's transaction: one per hour bucket (organization, UTC hour,
 * workspace, key, model, provider) the rows fall in, and one per
 * organization whose rows cost something (migration 0021).
 */
export function rollupStatements(db: Kysely<Database>, rows: readonly RolledRow[]): CompiledQuery[] {
  const hours = new Map<string, UsageHourlyTable>();
  const spent = new Map<string, number>();
  for (const row of rows) {
    const hour = row.created_at.slice(0, 13);
    const provider = row.provider_name ?? '';
    const id = `${row.organization_id}\u0000${hour}\u0000${row.workspace_id}\u0000${row.api_key_hash}\u0000${row.model}\u0000${provider}`;
    let sums = hours.get(id);
    if (!sums) {
      sums = {
        organization_id: row.organization_id, hour, workspace_id: row.workspace_id, api_key_hash: row.api_key_hash, model: row.model, provider_name: provider,
        requests: 0, errors: 0, tokens_prompt: 0, tokens_completion: 0, tokens_reasoning: 0, tokens_cached: 0, cost: 0, latency_ms_sum: 0, latency_count: 0,
      };
      hours.set(id, sums);
    }
    const cost = row.total_cost ?? 0;
    sums.requests += 1;
    if (row.status === 'error') sums.errors += 1;
    sums.tokens_prompt += row.tokens_prompt ?? 0;
    sums.tokens_completion += row.tokens_completion ?? 0;
    sums.tokens_reasoning += row.tokens_reasoning ?? 0;
    sums.tokens_cached += row.tokens_cached ?? 0;
    sums.cost += cost;
    if (row.latency_ms != null) {
      sums.latency_ms_sum += row.latency_ms;
      sums.latency_count += 1;
    }
    if (cost !== 0) spent.set(row.organization_id, (spent.get(row.organization_id) ?? 0) + cost);
  }
  const statements = Array.from(hours.values(), (sums) => addToHour(db, sums));
  for (const [organization_id, usage] of spent) statements.push(addToOrganization(db, { organization_id, usage }));
  return statements;
}

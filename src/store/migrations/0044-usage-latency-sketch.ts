import { type Kysely, sql } from 'kysely';
import { bucketColumns, bucketFloor, LATENCY_BUCKETS, type LatencySketch } from '../latency-sketch.js';
import { COUNT } from './column-types.js';

/** The ledger's column each sketch counts. */
const SOURCE: Record<LatencySketch, string> = { latency: 'latency_ms', ttft: 'ttft_ms' };

/** A ledger row's count in `sketch`'s bucket `i`: 1 when its time falls in the bucket's bounds. */
function counted(sketch: LatencySketch, i: number) {
  const time = sql.ref(SOURCE[sketch]);
  const below = sql`${time} < ${sql.lit(bucketFloor(i + 1))}`;
  const floor = sql`${time} >= ${sql.lit(bucketFloor(i))}`;
  const within = i === 0 ? below : i + 1 < LATENCY_BUCKETS ? sql`${floor} and ${below}` : floor;
  return sql`sum(case when ${within} then 1 else 0 end)`;
}

/**
 * The rollups' latency sketches (store/latency-sketch.ts): for the request's
 * time and for its first token, a count per log-spaced bucket in usage_hourly
 * and usage_daily, kept by the ledger's writer in its batch as its other sums
 * are (accounting/usage-rollup.ts). They start from the ledger's rows written
 * before: the hours from the generations, the days from the hours, as
 * migration 0036 did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sketches = ['latency', 'ttft'] as const;
  const columns = sketches.flatMap((sketch) => bucketColumns(sketch));
  for (const table of ['usage_hourly', 'usage_daily'])
    for (const column of columns)
      await db.schema
        .alterTable(table)
        .addColumn(column, COUNT, (c) => c.notNull().defaultTo(0))
        .execute();
  const set = sql.join(columns.map((column) => sql`${sql.id(column)} = ${sql.ref(`g.${column}`)}`));
  const counts = sql.join(
    sketches.flatMap((sketch) => bucketColumns(sketch).map((column, i) => sql`${counted(sketch, i)} as ${sql.id(column)}`)),
  );
  const keys = ['organization_id', 'workspace_id', 'api_key_hash', 'model', 'provider_name'];
  const matches = (table: string, time: string) =>
    sql.join(
      [time, ...keys].map((key) => sql`${sql.ref(`${table}.${key}`)} = ${sql.ref(`g.${key}`)}`),
      sql` and `,
    );
  await sql`
    update usage_hourly set ${set}
    from (
      select organization_id, substr(created_at, 1, 13) as hour, workspace_id, api_key_hash, model,
        coalesce(provider_name, '') as provider_name, ${counts}
      from generations where latency_ms is not null or ttft_ms is not null
      group by organization_id, substr(created_at, 1, 13), workspace_id, api_key_hash, model, coalesce(provider_name, '')
    ) as g
    where ${matches('usage_hourly', 'hour')}
  `.execute(db);
  const sums = sql.join(columns.map((column) => sql`sum(${sql.ref(column)}) as ${sql.id(column)}`));
  await sql`
    update usage_daily set ${set}
    from (
      select organization_id, substr(hour, 1, 10) as day, workspace_id, api_key_hash, model, provider_name, ${sums}
      from usage_hourly
      group by organization_id, substr(hour, 1, 10), workspace_id, api_key_hash, model, provider_name
    ) as g
    where ${matches('usage_daily', 'day')}
  `.execute(db);
}

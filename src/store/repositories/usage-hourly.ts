import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, UsageHourlyTable } from '../schema.js';

/** The columns of usage_hourly a query may group or filter by. */
export type UsageColumn = 'model' | 'provider_name' | 'api_key_hash' | 'workspace_id';
/** The sums usage_hourly keeps. */
export type UsageSum = Exclude<keyof UsageHourlyTable, 'organization_id' | 'hour' | UsageColumn>;
/** What a query measures: a sum (of one column, or of several added), or a sum divided by another (null where the divisor's sum is 0). */
export type UsageMeasure = { sum: readonly [UsageSum, ...UsageSum[]] } | { ratio: readonly [UsageSum, UsageSum] };
/** Time buckets: usage_hourly's own hours, or UTC days. */
export type UsageBucket = 'hour' | 'day';

export interface UsageFilter {
  column: UsageColumn;
  values: readonly string[];
  /** Rows whose value is not among `values`. */
  exclude: boolean;
}

/** What to order by: the time bucket, a grouped column or a measure (by its name). */
export interface UsageOrder {
  by: 'bucket' | UsageColumn | { measure: string };
  descending: boolean;
}

export interface UsageQuery {
  organizationId: string;
  /** Hours from (inclusive) to (exclusive), 'YYYY-MM-DDTHH'. */
  from: string;
  to: string;
  bucket: UsageBucket | null;
  groupBy: readonly UsageColumn[];
  filters: readonly UsageFilter[];
  /** Each measure under the name it is returned by. */
  measures: ReadonlyMap<string, UsageMeasure>;
  order: readonly UsageOrder[];
  limit: number;
  /** At most this many rows per combination of the grouped columns, in `order`'s order. */
  groupLimit?: number;
}

/** A row: `bucket` (the hour 'YYYY-MM-DDTHH' or the day 'YYYY-MM-DD') when bucketed, the grouped columns, and the measures (numbers, or null). */
export type UsageRow = Record<string, string | number | null>;

const RANK = '__rank';

const measureSql = (measure: UsageMeasure): RawBuilder<unknown> =>
  'sum' in measure
    ? sql.join(measure.sum.map((column) => sql`sum(${sql.ref(column)})`), sql` + `)
    : sql`case when sum(${sql.ref(measure.ratio[1])}) = 0 then null else sum(${sql.ref(measure.ratio[0])}) * 1.0 / sum(${sql.ref(measure.ratio[1])}) end`;

/**
 * Sums of usage_hourly over one organization's hours [from, to), bucketed
 * and grouped as asked. The range is a range of its primary key
 * (organization_id, hour, ...), so a query reads only the rows of those
 * hours. The columns and measures named come from the caller's lists, never
 * from a client's text; values are bound.
 */
export async function queryUsage(db: Kysely<Database>, query: UsageQuery): Promise<{ rows: UsageRow[]; truncated: boolean }> {
  const bucket = query.bucket === 'day' ? sql`substr(hour, 1, 10)` : sql`hour`;
  const measures = [...query.measures];
  const conditions = [sql`organization_id = ${query.organizationId}`, sql`hour >= ${query.from}`, sql`hour < ${query.to}`];
  for (const { column, values, exclude } of query.filters) {
    if (values.length > 0) conditions.push(sql`${sql.ref(column)} ${exclude ? sql`not in` : sql`in`} (${sql.join(values)})`);
    else if (!exclude) conditions.push(sql`1 = 0`);
  }
  const selected = [
    ...(query.bucket ? [sql`${bucket} as ${sql.id('bucket')}`] : []),
    ...query.groupBy.map((column) => sql.ref(column)),
    ...measures.map(([name, measure]) => sql`${measureSql(measure)} as ${sql.id(name)}`),
  ];
  const groups = [...(query.bucket ? [bucket] : []), ...query.groupBy.map((column) => sql.ref(column))];
  // Inside the grouping query an order names expressions (a window's ORDER BY sees no aliases); around it, the aliases.
  const orderItem = (order: UsageOrder, inner: boolean) => {
    const direction = order.descending ? sql`desc nulls last` : sql`asc nulls last`;
    if (order.by === 'bucket') return sql`${inner ? bucket : sql.id('bucket')} ${direction}`;
    if (typeof order.by === 'string') return sql`${sql.ref(order.by)} ${direction}`;
    const name = order.by.measure;
    return sql`${inner ? measureSql(query.measures.get(name)!) : sql.id(name)} ${direction}`;
  };
  const order = (inner: boolean) => (query.order.length > 0 ? sql`order by ${sql.join(query.order.map((o) => orderItem(o, inner)))}` : sql``);
  const grouping = groups.length > 0 ? sql`group by ${sql.join(groups)}` : sql``;
  const from = sql`from usage_hourly where ${sql.join(conditions, sql` and `)} ${grouping}`;
  const fetch = query.limit + 1;
  const ranked = query.groupLimit !== undefined && query.groupBy.length > 0;
  const statement = ranked
    ? sql<UsageRow>`select * from (select ${sql.join(selected)}, row_number() over (partition by ${sql.join(query.groupBy.map((c) => sql.ref(c)))} ${order(true)}) as ${sql.id(RANK)} ${from}) ranked where ${sql.id(RANK)} <= ${query.groupLimit} ${order(false)} limit ${fetch}`
    : sql<UsageRow>`select ${sql.join(selected)} ${from} ${order(true)} limit ${fetch}`;
  const { rows } = await statement.execute(db);
  const truncated = rows.length > query.limit;
  return {
    rows: rows.slice(0, query.limit).map((row) => {
      const out: UsageRow = {};
      if (query.bucket) out.bucket = row.bucket as string;
      for (const column of query.groupBy) out[column] = row[column] as string;
      // PostgreSQL sums integers as numeric, which its driver hands over as text.
      for (const [name] of measures) out[name] = row[name] === null ? null : Number(row[name]);
      return out;
    }),
    truncated,
  };
}

/** What an organization's keys spent in all, deleted keys included (usage_hourly's sums cost the same; this reads the counters). */
export async function organizationUsage(db: Kysely<Database>, organizationId: string): Promise<number> {
  const row = await db.selectFrom('organization_usage').select('usage').where('organization_id', '=', organizationId).executeTakeFirst();
  return row?.usage ?? 0;
}

import { type Kysely, type RawBuilder, sql } from 'kysely';
import { bucketColumns, bucketValue, type LatencySketch } from '../latency-sketch.js';
import type { Database, UsageHourlyTable } from '../schema.js';
import { USAGE_SUMS } from '../usage-sums.js';
import { dayAfter, foldedBefore } from './usage-daily.js';

/** The columns of usage_hourly a query may group or filter by. */
export type UsageColumn = 'model' | 'provider_name' | 'api_key_hash' | 'workspace_id';
/** The sums usage_hourly keeps. */
export type UsageSum = Exclude<keyof UsageHourlyTable, 'organization_id' | 'hour' | UsageColumn>;
/**
 * What a query measures: a sum (of one column, or of several added), a sum
 * divided by another (null where the divisor's sum is 0), or a quantile of a
 * latency sketch (null where it counts nothing).
 */
export type UsageMeasure =
  | { sum: readonly [UsageSum, ...UsageSum[]] }
  | { ratio: readonly [UsageSum, UsageSum] }
  | { quantile: readonly [LatencySketch, number] };
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

const sumOf = (columns: readonly string[]) =>
  sql.join(
    columns.map((column) => sql`sum(${sql.ref(column)})`),
    sql` + `,
  );

/**
 * A sketch's quantile in SQL, as latency-sketch.ts's quantileOf reads it: the
 * value of the first bucket whose running count reaches q of the whole (the
 * engines compute each sum once however often it is named).
 */
function quantileSql(sketch: LatencySketch, q: number): RawBuilder<unknown> {
  const columns = bucketColumns(sketch);
  const whole = sql`(${sumOf(columns)}) * ${sql.lit(q)}`;
  const steps = columns.map((_, i) => sql`when ${sumOf(columns.slice(0, i + 1))} >= ${whole} then ${sql.lit(bucketValue(i))}`);
  return sql`case when ${sumOf(columns)} = 0 then null ${sql.join(steps, sql` `)} end`;
}

const measureSql = (measure: UsageMeasure): RawBuilder<unknown> => {
  if ('sum' in measure) return sumOf(measure.sum);
  if ('quantile' in measure) return quantileSql(...measure.quantile);
  return sql`case when sum(${sql.ref(measure.ratio[1])}) = 0 then null else sum(${sql.ref(measure.ratio[0])}) * 1.0 / sum(${sql.ref(measure.ratio[1])}) end`;
};

/** The whole UTC days of the hours [from, to): days [first, end), 'YYYY-MM-DD', when there is one. */
export function wholeDays(from: string, to: string): { first: string; end: string } | undefined {
  const day = from.slice(0, 10);
  const first = from.endsWith('T00') ? day : dayAfter(day);
  const end = to.slice(0, 10);
  return first < end ? { first, end } : undefined;
}

/** The days of `days` that usage_daily holds whole: those before `folded` (usage-daily.ts). */
export function foldedDays(days: { first: string; end: string } | undefined, folded: string | null) {
  if (!days || folded === null) return undefined;
  const end = days.end < folded ? days.end : folded;
  return days.first < end ? { first: days.first, end } : undefined;
}

/**
 * Sums of an organization's usage over the hours [from, to), bucketed and
 * grouped as asked. An hourly query reads usage_hourly; any other reads the
 * range's whole days that are folded from usage_daily and the other hours
 * from usage_hourly: a 30-day query then reads 30 days' rows, not 720 hours'.
 * Each range is a range of its table's primary key (organization_id, hour or
 * day, ...), so a query reads only the rows of that range. The columns and
 * measures named come from the caller's lists, never from a client's text;
 * values are bound.
 */
export async function queryUsage(db: Kysely<Database>, query: UsageQuery): Promise<{ rows: UsageRow[]; truncated: boolean }> {
  const measures = [...query.measures];
  const filters: RawBuilder<unknown>[] = [];
  for (const { column, values, exclude } of query.filters) {
    if (values.length > 0) filters.push(sql`${sql.ref(column)} ${exclude ? sql`not in` : sql`in`} (${sql.join(values)})`);
    else if (!exclude) filters.push(sql`1 = 0`);
  }
  const where = (time: 'hour' | 'day', from: string, to: string) =>
    sql.join(
      [sql`organization_id = ${query.organizationId}`, sql`${sql.ref(time)} >= ${from}`, sql`${sql.ref(time)} < ${to}`, ...filters],
      sql` and `,
    );
  let source: RawBuilder<unknown>;
  let bucket: RawBuilder<unknown>;
  const days = query.bucket === 'hour' ? undefined : foldedDays(wholeDays(query.from, query.to), await foldedBefore(db));
  if (days) {
    const columns = sql.join(
      [...(['workspace_id', 'api_key_hash', 'model', 'provider_name'] as const), ...USAGE_SUMS].map((column) => sql.ref(column)),
    );
    const hours = (from: string, to: string) =>
      sql`select substr(hour, 1, 10) as ${sql.id('day')}, ${columns} from usage_hourly where ${where('hour', from, to)}`;
    const parts = [
      ...(query.from < `${days.first}T00` ? [hours(query.from, `${days.first}T00`)] : []),
      sql`select ${sql.ref('day')}, ${columns} from usage_daily where ${where('day', days.first, days.end)}`,
      ...(`${days.end}T00` < query.to ? [hours(`${days.end}T00`, query.to)] : []),
    ];
    source = sql`(${sql.join(parts, sql` union all `)}) as rollups`;
    bucket = sql.ref('day');
  } else {
    source = sql`usage_hourly where ${where('hour', query.from, query.to)}`;
    bucket = query.bucket === 'day' ? sql`substr(hour, 1, 10)` : sql`hour`;
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
  const order = (inner: boolean) =>
    query.order.length > 0 ? sql`order by ${sql.join(query.order.map((o) => orderItem(o, inner)))}` : sql``;
  const grouping = groups.length > 0 ? sql`group by ${sql.join(groups)}` : sql``;
  const from = sql`from ${source} ${grouping}`;
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

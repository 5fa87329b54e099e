import { Errors } from '../http/errors.js';
import type { UsageBucket, UsageFilter, UsageMeasure, UsageOrder, UsageQuery } from '../store/repositories/usage-hourly.js';
import {
  DIMENSIONS,
  type DimensionName,
  GRANULARITIES,
  METRICS,
  type MetricName,
  OPERATORS,
  UNOFFERED_GRANULARITIES,
} from './analytics-catalog.js';

type FilterValue = string | number;

/** POST /analytics/query's body, its types already checked (api/analytics/schemas.ts); this module checks what it means. */
export interface AnalyticsQueryRequest {
  metrics: readonly string[];
  dimensions?: readonly string[];
  filters?: readonly { field: string; operator: string; value: FilterValue | readonly FilterValue[]; include_unset?: boolean }[];
  granularity?: string;
  group_limit?: number;
  limit?: number;
  order_by?: { field: string; direction: string };
  time_range?: { start: string; end: string };
  classifier_dimensions?: unknown;
  classifier_filters?: unknown;
}

/** What a query asks of the rollups, and how its rows are returned. */
export interface AnalyticsPlan {
  query: Omit<UsageQuery, 'organizationId'>;
  metrics: readonly MetricName[];
  dimensions: readonly DimensionName[];
  granularity: UsageBucket | null;
  /** Told to the caller beside the rows (the reference's `warnings`): the time range was widened to whole hours. */
  warnings: string[];
}

export const ANALYTICS_LIMITS = {
  /** Rows returned when `limit` is not given (the reference's default). */
  defaultLimit: 1000,
  /** The most rows one query returns; a time series by dimension without `limit` gets this many. */
  maxLimit: 10_000,
  /** Without `time_range`, the last this many days. */
  defaultDays: 30,
  /** The longest time range. */
  maxDays: 366,
  /** Values of one `in` or `not_in` filter. */
  maxFilterValues: 100,
} as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const names = (record: object) => Object.keys(record).join(', ');
const has = <T extends object>(record: T, key: string): key is Extract<keyof T, string> => Object.hasOwn(record, key);
const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

function timeRange(range: AnalyticsQueryRequest['time_range'], now: Date): { from: string; to: string; warning?: string } {
  if (!range) {
    const end = Math.ceil(now.getTime() / HOUR_MS) * HOUR_MS;
    return { from: hourOf(end - ANALYTICS_LIMITS.defaultDays * DAY_MS), to: hourOf(end) };
  }
  const instant = (field: 'start' | 'end') => {
    const ms = Date.parse(range[field]);
    if (!Number.isFinite(ms)) throw Errors.invalidRequest(`time_range.${field} must be a date-time (ISO 8601 with a time zone)`);
    return ms;
  };
  const start = instant('start');
  const end = instant('end');
  if (end <= start) throw Errors.invalidRequest('time_range.end must be after time_range.start');
  if (end - start > ANALYTICS_LIMITS.maxDays * DAY_MS)
    throw Errors.invalidRequest(`time_range must span at most ${ANALYTICS_LIMITS.maxDays} days`);
  const from = Math.floor(start / HOUR_MS) * HOUR_MS;
  const to = Math.ceil(end / HOUR_MS) * HOUR_MS;
  const widened = from !== start || to !== end;
  return {
    from: hourOf(from),
    to: hourOf(to),
    ...(widened
      ? {
          warning: `time_range was widened to whole hours (${new Date(from).toISOString()} to ${new Date(to).toISOString()}): usage is counted by the hour`,
        }
      : {}),
  };
}

function count(value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > ANALYTICS_LIMITS.maxLimit)
    throw Errors.invalidRequest(`${field} must be an integer from 1 to ${ANALYTICS_LIMITS.maxLimit}`);
  return value;
}

function metricList(metrics: readonly string[]): MetricName[] {
  if (metrics.length === 0) throw Errors.invalidRequest('metrics must have at least 1 item');
  return metrics.map((metric, i) => {
    if (!has(METRICS, metric))
      throw Errors.invalidRequest(
        `metrics[${i}] ${JSON.stringify(metric)} is not a metric this gateway records; it records ${names(METRICS)}`,
      );
    if (metrics.indexOf(metric) !== i) throw Errors.invalidRequest(`metrics[${i}] ${JSON.stringify(metric)} is named twice`);
    return metric;
  });
}

function dimensionList(dimensions: readonly string[]): DimensionName[] {
  if (dimensions.length > 2) throw Errors.invalidRequest('dimensions must have at most 2 items');
  return dimensions.map((dimension, i) => {
    if (!has(DIMENSIONS, dimension))
      throw Errors.invalidRequest(
        `dimensions[${i}] ${JSON.stringify(dimension)} is not a dimension this gateway records; it records ${names(DIMENSIONS)}`,
      );
    if (dimensions.indexOf(dimension) !== i) throw Errors.invalidRequest(`dimensions[${i}] ${JSON.stringify(dimension)} is named twice`);
    return dimension;
  });
}

function granularityOf(granularity: string | undefined): UsageBucket | null {
  if (granularity === undefined) return null;
  if (has(GRANULARITIES, granularity)) return granularity;
  const why = (UNOFFERED_GRANULARITIES as readonly string[]).includes(granularity)
    ? 'is not offered: usage is counted by the hour'
    : 'is not a granularity';
  throw Errors.invalidRequest(`granularity ${JSON.stringify(granularity)} ${why}; use ${names(GRANULARITIES)}`);
}

function filterOf(filter: NonNullable<AnalyticsQueryRequest['filters']>[number], i: number): UsageFilter[] {
  const at = `filters[${i}]`;
  if (!has(DIMENSIONS, filter.field))
    throw Errors.invalidRequest(
      `${at}.field ${JSON.stringify(filter.field)} is not a dimension this gateway records; it records ${names(DIMENSIONS)}`,
    );
  if (!has(OPERATORS, filter.operator))
    throw Errors.invalidRequest(
      `${at}.operator ${JSON.stringify(filter.operator)} is not offered; use ${names(OPERATORS)} (dimensions are names, not numbers)`,
    );
  const dimension = DIMENSIONS[filter.field] as (typeof DIMENSIONS)[DimensionName];
  const operator = filter.operator;
  const text = (value: FilterValue, where: string) => {
    if (typeof value !== 'string') throw Errors.invalidRequest(`${where} must be a string: ${filter.field} values are names`);
    return value;
  };
  let values: string[];
  if (OPERATORS[operator] === 'scalar') {
    if (Array.isArray(filter.value)) throw Errors.invalidRequest(`${at}.value must be a single value for operator ${operator}`);
    values = [text(filter.value as FilterValue, `${at}.value`)];
  } else {
    if (!Array.isArray(filter.value)) throw Errors.invalidRequest(`${at}.value must be an array for operator ${operator}`);
    const list = filter.value as readonly FilterValue[];
    if (list.length === 0) throw Errors.invalidRequest(`${at}.value must have at least 1 item`);
    if (list.length > ANALYTICS_LIMITS.maxFilterValues)
      throw Errors.invalidRequest(`${at}.value must have at most ${ANALYTICS_LIMITS.maxFilterValues} items`);
    values = list.map((value, j) => text(value, `${at}.value[${j}]`));
  }
  const exclude = operator === 'neq' || operator === 'not_in';
  const filters: UsageFilter[] = [{ column: dimension.column, values, exclude }];
  // A row without a value (''), as SQL's NULL, matches no filter on its dimension unless include_unset asks for it.
  if ('unset' in dimension) {
    const withUnset = filter.include_unset === true && (operator === 'in' || operator === 'not_in');
    if (exclude && !withUnset) filters.push({ column: dimension.column, values: [''], exclude: true });
    if (operator === 'in' && withUnset) filters[0] = { column: dimension.column, values: [...values, ''], exclude: false };
  }
  return filters;
}

/**
 * Checks an analytics query against what the gateway records and turns it
 * into a query of the usage rollups: every name must be one of
 * analytics-catalog.ts's, every filter's operator must agree with its value,
 * and the time range must be a real one of at most a year (whole hours; the
 * last 30 days when absent). A refusal is a 400 naming the field and why.
 */
export function planAnalyticsQuery(request: AnalyticsQueryRequest, now: Date): AnalyticsPlan {
  if (request.classifier_dimensions !== undefined)
    throw Errors.invalidRequest('classifier_dimensions is not offered: this gateway has no classifiers');
  if (request.classifier_filters !== undefined)
    throw Errors.invalidRequest('classifier_filters is not offered: this gateway has no classifiers');
  const metrics = metricList(request.metrics);
  const dimensions = dimensionList(request.dimensions ?? []);
  const granularity = granularityOf(request.granularity);
  const filters = (request.filters ?? []).flatMap(filterOf);
  const range = timeRange(request.time_range, now);
  const limit = count(request.limit, 'limit');
  const groupLimit = count(request.group_limit, 'group_limit');

  const measures = new Map<string, UsageMeasure>(metrics.map((metric) => [metric, METRICS[metric].measure]));
  const order: UsageOrder[] = [];
  if (request.order_by) {
    const { field, direction } = request.order_by;
    if (direction !== 'asc' && direction !== 'desc') throw Errors.invalidRequest(`order_by.direction must be one of "asc", "desc"`);
    const descending = direction === 'desc';
    if (field === 'date') {
      if (!granularity) throw Errors.invalidRequest('order_by.field "date" needs a granularity');
      order.push({ by: 'bucket', descending });
    } else if (field === 'request_count' || (has(METRICS, field) && measures.has(field))) {
      if (!measures.has(field)) measures.set(field, METRICS.request_count.measure);
      order.push({ by: { measure: field }, descending });
    } else if (has(DIMENSIONS, field) && dimensions.includes(field)) {
      order.push({ by: DIMENSIONS[field].column, descending });
    } else {
      throw Errors.invalidRequest(
        `order_by.field ${JSON.stringify(field)} must be a requested metric, request_count, a requested dimension, or date`,
      );
    }
  } else {
    if (granularity) order.push({ by: 'bucket', descending: false });
    order.push({ by: { measure: metrics[0]! }, descending: true });
  }
  // Ties resolve the same way on every run and engine: by time, then by the dimensions' values.
  if (granularity && !order.some((o) => o.by === 'bucket')) order.push({ by: 'bucket', descending: false });
  for (const dimension of dimensions)
    if (!order.some((o) => o.by === DIMENSIONS[dimension].column)) order.push({ by: DIMENSIONS[dimension].column, descending: false });

  const timeSeriesByDimension = granularity !== null && dimensions.length > 0;
  return {
    query: {
      from: range.from,
      to: range.to,
      bucket: granularity,
      groupBy: dimensions.map((dimension) => DIMENSIONS[dimension].column),
      filters,
      measures,
      order,
      limit: limit ?? (timeSeriesByDimension ? ANALYTICS_LIMITS.maxLimit : ANALYTICS_LIMITS.defaultLimit),
      ...(groupLimit !== undefined && dimensions.length > 0 ? { groupLimit } : {}),
    },
    metrics,
    dimensions,
    granularity,
    warnings: range.warning ? [range.warning] : [],
  };
}

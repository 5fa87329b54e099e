import type { Kysely } from 'kysely';
import type { Reach } from '../store/reach.js';
import { queryUsage, type UsageBucket, type UsageRow } from '../store/repositories/usage-hourly.js';
import type { Database } from '../store/schema.js';
import { roundUsd } from '../util/round-usd.js';
import { reachFilters } from '../workspaces/management-reach.js';
import { DIMENSIONS, METRICS, type MetricName } from './analytics-catalog.js';
import type { AnalyticsPlan } from './plan-query.js';

/** A bucket's start as the reference writes it: 'YYYY-MM-DDTHH:00:00.000Z' or 'YYYY-MM-DDT00:00:00.000Z'. */
export const bucketStart = (bucket: string, granularity: UsageBucket) =>
  granularity === 'hour' ? `${bucket}:00:00.000Z` : `${bucket}T00:00:00.000Z`;

/** Sums are exact counts and dollars; rates keep six significant digits, enough for a chart and free of float noise. */
function metricValue(metric: MetricName, value: number | string | null): number | null {
  if (value === null) return null;
  const number = Number(value);
  if (metric === 'total_usage') return roundUsd(number);
  return METRICS[metric].isRate ? Number(number.toPrecision(6)) : number;
}

/** One row of the reference's response: `date__<granularity>`, the dimensions by name (a provider never served is null), the metrics. */
function toResultRow(plan: AnalyticsPlan, row: UsageRow): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  if (plan.granularity) out[`date__${plan.granularity}`] = bucketStart(row.bucket as string, plan.granularity);
  for (const dimension of plan.dimensions) {
    const value = row[DIMENSIONS[dimension].column] as string;
    out[dimension] = value === '' ? null : value;
  }
  for (const metric of plan.metrics) out[metric] = metricValue(metric, row[metric] ?? null);
  return out;
}

/** Runs a planned query over the rollups in reach (a scoped key's workspace's, else the organization's): POST /analytics/query's data. */
export async function runAnalyticsQuery(db: Kysely<Database>, reach: Reach, plan: AnalyticsPlan) {
  const started = performance.now();
  const filters = [...plan.query.filters, ...reachFilters(reach)];
  const { rows, truncated } = await queryUsage(db, { ...plan.query, filters, organizationId: reach.organizationId });
  const data = rows.map((row) => toResultRow(plan, row));
  return {
    data,
    metadata: { query_time_ms: Math.round((performance.now() - started) * 10) / 10, row_count: data.length, truncated },
    ...(plan.warnings.length > 0 ? { warnings: plan.warnings } : {}),
  };
}

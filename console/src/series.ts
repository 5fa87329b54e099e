import type { ChartSeries } from './chart';

/** A row of POST /analytics/query's answer as the overview asks for it. */
export interface Row {
  date__day?: string;
  date__hour?: string;
  model?: string;
  api_key_id?: string;
  request_count: number;
  total_usage: number;
}

/** A row of the overview's health: its requests by how they ended, and the quantiles (ms) of their latency and first token. */
export interface HealthRow extends Row {
  error_count_4xx: number;
  error_count_5xx: number;
  latency_p50: number | null;
  latency_p95: number | null;
  first_token_p50: number | null;
  first_token_p95: number | null;
}

/** What the overview's charts draw a line for. */
export type Dimension = 'model' | 'api_key_id';

/** Lines a chart draws at most: one per colour of its palette, the last of them "Other" when there are more. */
export const MAX_SERIES = 8;

/**
 * Pivots rows of (bucket, dimension) into aligned series of spend and of requests for the charts, buckets without
 * a row counting zero. Both charts list the same lines in the same order (so a line keeps its colour from one to
 * the other): the most spent first, then the most requests, then by name. Past MAX_SERIES − 1 of them, the rest
 * are summed into one "Other (n)" line, so that a gateway of a hundred keys still draws a chart one can read.
 */
export function pivot(
  rows: Row[],
  range: { start: number; end: number; stepMs: number },
  dimension: Dimension,
  name: (value: string) => string = (value) => value,
) {
  const times: number[] = [];
  for (let t = range.start; t < range.end; t += range.stepMs) times.push(t / 1000);
  const index = new Map(times.map((t, i) => [t, i]));
  const lines = new Map<string, { spend: number[]; requests: number[] }>();
  for (const row of rows) {
    const bucket = row.date__hour ?? row.date__day;
    const at = bucket ? index.get(Date.parse(bucket) / 1000) : undefined;
    if (at === undefined) continue;
    const value = row[dimension] ?? '(none)';
    let line = lines.get(value);
    if (!line) lines.set(value, (line = { spend: times.map(() => 0), requests: times.map(() => 0) }));
    line.spend[at] = (line.spend[at] ?? 0) + row.total_usage;
    line.requests[at] = (line.requests[at] ?? 0) + row.request_count;
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  let ranked = [...lines]
    .map(([value, line]) => ({ label: name(value), ...line, order: [sum(line.spend), sum(line.requests)] as const }))
    .sort((a, b) => b.order[0] - a.order[0] || b.order[1] - a.order[1] || a.label.localeCompare(b.label));
  if (ranked.length > MAX_SERIES) {
    const rest = ranked.slice(MAX_SERIES - 1);
    const fold = (metric: 'spend' | 'requests') => times.map((_, i) => rest.reduce((total, line) => total + (line[metric][i] ?? 0), 0));
    ranked = [
      ...ranked.slice(0, MAX_SERIES - 1),
      { label: `Other (${rest.length})`, spend: fold('spend'), requests: fold('requests'), order: [0, 0] },
    ];
  }
  const series = (metric: 'spend' | 'requests'): ChartSeries[] => ranked.map((line) => ({ label: line.label, values: line[metric] }));
  return { times, spend: series('spend'), requests: series('requests') };
}

/** Sums of requests and spend by model or key, the most spent first. */
export function totals(rows: Row[], key: Dimension) {
  const out = new Map<string, { name: string; requests: number; spend: number }>();
  for (const row of rows) {
    const name = row[key] ?? '(none)';
    const t = out.get(name) ?? { name, requests: 0, spend: 0 };
    t.requests += row.request_count;
    t.spend += row.total_usage;
    out.set(name, t);
  }
  return [...out.values()].sort((a, b) => b.spend - a.spend || b.requests - a.requests);
}

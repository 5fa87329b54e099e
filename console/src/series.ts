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

/** Pivots rows of (bucket, model) into aligned series for the chart, buckets without a row counting zero. */
export function pivot(rows: Row[], start: number, end: number, stepMs: number, metric: 'request_count' | 'total_usage') {
  const times: number[] = [];
  for (let t = start; t < end; t += stepMs) times.push(t / 1000);
  const index = new Map(times.map((t, i) => [t, i]));
  const byModel = new Map<string, (number | null)[]>();
  for (const row of rows) {
    const bucket = row.date__hour ?? row.date__day;
    const at = bucket ? index.get(Date.parse(bucket) / 1000) : undefined;
    if (at === undefined) continue;
    const model = row.model ?? 'all';
    let values = byModel.get(model);
    if (!values) byModel.set(model, (values = times.map(() => 0)));
    values[at] = (values[at] ?? 0) + row[metric];
  }
  const series: ChartSeries[] = [...byModel].map(([label, values]) => ({ label, values })).sort((a, b) => a.label.localeCompare(b.label));
  return { times, series };
}

/** Sums of requests and spend by model or key, the most spent first. */
export function totals<K extends 'model' | 'api_key_id'>(rows: Row[], key: K) {
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

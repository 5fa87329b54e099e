import { LATENCY_COLUMNS } from './latency-sketch.js';

/** The sums usage_hourly and usage_daily keep for each of their rows: what a ledger row adds to, a day folds and a query sums. */
export const USAGE_SUMS = [
  'requests',
  'errors',
  'errors_4xx',
  'errors_5xx',
  'tokens_prompt',
  'tokens_completion',
  'tokens_reasoning',
  'tokens_cached',
  'cost',
  'latency_ms_sum',
  'latency_count',
  ...LATENCY_COLUMNS,
] as const;

import type { UsageBucket, UsageColumn, UsageMeasure } from '../store/repositories/usage-hourly.js';

/** How a metric's value reads (the reference's display_format values this gateway uses). */
export type DisplayFormat = 'number' | 'currency' | 'percent' | 'latency';

export interface MetricDefinition {
  label: string;
  format: DisplayFormat;
  /** A ratio (averaged over the rows it covers), not a sum. */
  isRate: boolean;
  measure: UsageMeasure;
}

/**
 * The metrics of the reference's analytics that this gateway records, from
 * the usage rollups (store/repositories/usage-hourly.ts). Names follow the
 * reference's (request_count, total_usage); the others name what they count.
 */
export const METRICS = {
  request_count: { label: 'Request Count', format: 'number', isRate: false, measure: { sum: ['requests'] } },
  total_usage: { label: 'Spend (USD)', format: 'currency', isRate: false, measure: { sum: ['cost'] } },
  prompt_tokens: { label: 'Prompt Tokens', format: 'number', isRate: false, measure: { sum: ['tokens_prompt'] } },
  completion_tokens: { label: 'Completion Tokens', format: 'number', isRate: false, measure: { sum: ['tokens_completion'] } },
  reasoning_tokens: { label: 'Reasoning Tokens', format: 'number', isRate: false, measure: { sum: ['tokens_reasoning'] } },
  cached_tokens: { label: 'Cached Prompt Tokens', format: 'number', isRate: false, measure: { sum: ['tokens_cached'] } },
  total_tokens: { label: 'Total Tokens', format: 'number', isRate: false, measure: { sum: ['tokens_prompt', 'tokens_completion'] } },
  error_count: { label: 'Error Count', format: 'number', isRate: false, measure: { sum: ['errors'] } },
  error_count_4xx: { label: 'Client Errors (4xx)', format: 'number', isRate: false, measure: { sum: ['errors_4xx'] } },
  error_count_5xx: { label: 'Server Errors (5xx)', format: 'number', isRate: false, measure: { sum: ['errors_5xx'] } },
  error_rate: { label: 'Error Rate', format: 'percent', isRate: true, measure: { ratio: ['errors', 'requests'] } },
  avg_latency: { label: 'Average Latency (ms)', format: 'latency', isRate: true, measure: { ratio: ['latency_ms_sum', 'latency_count'] } },
  // Quantiles of the rollups' latency sketches (store/latency-sketch.ts): within 19% from 8 ms up.
  latency_p50: { label: 'Latency p50 (ms)', format: 'latency', isRate: true, measure: { quantile: ['latency', 0.5] } },
  latency_p95: { label: 'Latency p95 (ms)', format: 'latency', isRate: true, measure: { quantile: ['latency', 0.95] } },
  first_token_p50: { label: 'First Token p50 (ms)', format: 'latency', isRate: true, measure: { quantile: ['ttft', 0.5] } },
  first_token_p95: { label: 'First Token p95 (ms)', format: 'latency', isRate: true, measure: { quantile: ['ttft', 0.95] } },
} as const satisfies Record<string, MetricDefinition>;

export type MetricName = keyof typeof METRICS;

export interface DimensionDefinition {
  label: string;
  column: UsageColumn;
  /** Rows may have no value (a request no provider served): `include_unset` reaches them. */
  unset?: true;
}

/** The dimensions of the reference's analytics that this gateway records. api_key_id values are key hashes (the reference's filters take them too). */
export const DIMENSIONS = {
  model: { label: 'Model', column: 'model' },
  provider: { label: 'Provider', column: 'provider_name', unset: true },
  api_key_id: { label: 'API Key', column: 'api_key_hash' },
  workspace: { label: 'Workspace', column: 'workspace_id' },
} as const satisfies Record<string, DimensionDefinition>;

export type DimensionName = keyof typeof DIMENSIONS;

/** Time buckets: the rollups are hourly, so hours and days. */
export const GRANULARITIES = { hour: 'Hour', day: 'Day' } as const satisfies Record<UsageBucket, string>;

/** Filter operators: the dimensions are names, so equality and sets (the reference's gt/gte/lt/lte compare numbers). */
export const OPERATORS = { eq: 'scalar', neq: 'scalar', in: 'array', not_in: 'array' } as const;

/** The reference's names this gateway does not offer, so that a refusal can say why. */
export const UNOFFERED_GRANULARITIES = ['minute', 'week', 'month'] as const;

/** GET /analytics/meta's data. */
export function analyticsMeta() {
  return {
    metrics: Object.entries(METRICS).map(([name, m]) => ({ name, display_label: m.label, is_rate: m.isRate, display_format: m.format })),
    dimensions: Object.entries(DIMENSIONS).map(([name, d]) => ({ name, display_label: d.label })),
    operators: Object.entries(OPERATORS).map(([name, valueType]) => ({ name, value_type: valueType })),
    granularities: Object.entries(GRANULARITIES).map(([name, label]) => ({ name, display_label: label })),
  };
}

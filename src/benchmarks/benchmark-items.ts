import type { Model } from '../catalog/types.js';
import type { EndpointFigures, Figures } from '../routing/endpoint-stats.js';
import type { EndpointOutcomes } from '../store/repositories/endpoint-outcomes.js';

/** The windows the reference's endpoint figures name (uptime_last_5m, _30m, _1d). */
export const WINDOWS = ['5m', '30m', '1d'] as const;
export type Window = (typeof WINDOWS)[number];

/** Questions in GPQA Diamond, the benchmark the catalog's `general` score reads (catalog/builtin/model-scores.ts). */
export const GPQA_DIAMOND_TASKS = 198;

export type TaskType = 'coding' | 'intelligence' | 'agentic' | 'search';

/** What the gateway measured: this instance's routing statistics, and the ledger's outcomes per window. */
export interface Measured {
  figures(model: string, provider: string): EndpointFigures | undefined;
  outcomes: Record<Window, ReadonlyMap<string, EndpointOutcomes>>;
}

export const outcomeKey = (model: string, provider: string) => `${model}\u0000${provider}`;

const percentiles = (figures: Figures | undefined) => (figures ? { p50: figures.p50, p90: figures.p90 } : null);

/** Percent of the requests the endpoint served or that failed for the client's own doing; null with none. */
const uptime = (o: EndpointOutcomes | undefined) =>
  o && o.requests - o.errors_4xx > 0 ? (100 * (o.requests - o.errors_4xx - o.errors_5xx)) / (o.requests - o.errors_4xx) : null;
/** Share of the requests that failed, either way; null with none. */
const errorRate = (o: EndpointOutcomes | undefined) => (o && o.requests > 0 ? o.errors / o.requests : null);

function endpointFigures(model: Model, provider: string, measured: Measured) {
  const figures = measured.figures(model.id, provider);
  const at = (window: Window) => measured.outcomes[window].get(outcomeKey(model.id, provider));
  return {
    provider,
    samples: figures?.samples ?? 0,
    latency_ms: percentiles(figures?.latencyMs),
    first_token_ms: percentiles(figures?.ttftMs),
    tokens_per_second: percentiles(figures?.throughput),
    ...Object.fromEntries(WINDOWS.map((w) => [`uptime_last_${w}`, uptime(at(w))])),
    ...Object.fromEntries(WINDOWS.map((w) => [`error_rate_last_${w}`, errorRate(at(w))])),
    requests_last_1d: at('1d')?.requests ?? 0,
  };
}

/** Mean cost of a request the model served over the last day (all its endpoints), or null. */
function costPerRequest(model: Model, measured: Measured): number | null {
  let cost = 0;
  let served = 0;
  for (const endpoint of model.endpoints) {
    const o = measured.outcomes['1d'].get(outcomeKey(model.id, endpoint.provider));
    if (o) {
      cost += o.cost;
      served += o.requests - o.errors;
    }
  }
  return served > 0 ? cost / served : null;
}

/** The catalog score a task type ranks by: intelligence is the overall (`general`) score; agentic and search have none. */
const RANKED_BY: Record<TaskType, 'general' | 'coding' | undefined> = {
  intelligence: 'general',
  coding: 'coding',
  agentic: undefined,
  search: undefined,
};

/**
 * The reference's UnifiedBenchmarksORItem per scored model: the catalog's
 * GPQA Diamond score (`general`, what the routers rank by) as its accuracy,
 * with the model's other catalog scores and each endpoint's measured
 * figures beside it. A task type keeps the models with its score, best
 * first; models are in catalog order otherwise.
 */
export function benchmarkItems(models: readonly Model[], measured: Measured, taskType: TaskType | undefined, asOf: string) {
  const rankedBy = taskType ? RANKED_BY[taskType] : 'general';
  if (!rankedBy) return [];
  const scored = models.filter((model) => model.scores?.general !== undefined && model.scores[rankedBy] !== undefined);
  if (taskType) scored.sort((a, b) => b.scores![rankedBy]! - a.scores![rankedBy]!);
  return scored.map((model) => ({
    source: 'openrouter' as const,
    model_permaslug: model.id,
    display_name: model.name,
    benchmark_type: 'gpqa_diamond' as const,
    accuracy: model.scores!.general!,
    accuracy_stddev: null,
    avg_cost_per_task: costPerRequest(model, measured),
    total_tasks: GPQA_DIAMOND_TASKS,
    // The vendor's figure came with the model's release; the catalog's own date when it has none.
    last_run_timestamp: model.created > 0 ? new Date(model.created * 1000).toISOString() : asOf,
    scores: model.scores,
    endpoints: model.endpoints.map((endpoint) => endpointFigures(model, endpoint.provider, measured)),
  }));
}

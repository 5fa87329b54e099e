import type { PipelineEntry } from '../plugins/pipeline-entry.js';
import type { CandidateReport, Strategy } from '../routing/plan-attempts.js';
import type { ModelVerdict } from '../routing/routers/router-choice.js';
import type { AttemptOutcome } from './attempt-outcome.js';

/** The model router that chose the models, when the request named one (routing/routers/). */
export interface RouterFacts {
  /** The router model asked for, e.g. "service/auto" (the reference's `router`). */
  model: string;
  /** The plugin whose settings it ran with. */
  plugin: string;
  summary: string;
  params: Record<string, unknown>;
  /** Every model it considered, chosen ones first, with why. */
  models: ModelVerdict[];
}

export interface RoutingFacts {
  requested: { model?: string | undefined; models?: readonly string[] | undefined };
  strategy: Strategy;
  attempts: AttemptOutcome[];
  /** Every endpoint the plan held, in the order it would try them. */
  planned: { model: string; provider: string }[];
  /** Every candidate endpoint with what the planner did with it and why (planned ones first, in plan order). */
  candidates: CandidateReport[];
  router?: RouterFacts;
  /** Router plugins of the request that did not run, with why. */
  skippedRouters?: { plugin: string; reason: string }[];
  /** What the plugin and guardrail stages did, in the order they ran. */
  pipeline?: PipelineEntry[];
}

/** The reference's RoutingStrategy of each router plugin; other plugins' names pass as they are (its enum allows unknown values). */
const ROUTER_STRATEGIES: Readonly<Record<string, string>> = {
  'auto-router': 'auto',
  'auto-beta-router': 'auto',
  'pareto-router': 'pareto',
  'switchyard-router': 'switchyard',
};

/** How the planner ordered each model's endpoints (plan-attempts.ts), in `params.endpoint_order`. */
const ENDPOINT_ORDERS: Readonly<Record<Strategy, string>> = {
  fallback: 'price_weighted',
  session: 'session',
  cache: 'cache',
  order: 'order',
  sort: 'sort',
};

/** An attempt's HTTP status (reference RouterAttempt): the upstream's, or what its failure means when it never answered. */
function attemptStatus(outcome: AttemptOutcome): number {
  if (outcome.status === 'success') return 200;
  if (outcome.error?.status !== undefined) return outcome.error.status;
  return outcome.error?.failure === 'timeout' ? 524 : outcome.error?.failure === 'aborted' ? 499 : 502;
}

/**
 * `service_metadata` (spec 7.2), asked for with `X-Service-Metadata:
 * enabled`, in the shape of the reference's OpenRouterMetadata so that its
 * clients parse it: `requested` the model asked for, `strategy` from its
 * RoutingStrategy, `endpoints: {total, available}` with each available
 * endpoint `selected` or not, and `attempts` with their HTTP statuses. The
 * gateway's explanations ride along as extra fields: every candidate's
 * decision and reason (dropped ones under `endpoints.excluded`), each
 * attempt's latency and error, and the planner's ordering in `params`.
 */
export function serviceMetadata(facts: RoutingFacts) {
  const served = facts.attempts.find((a) => a.status === 'success');
  const failed = facts.attempts.filter((a) => a.status === 'failed').length;
  const summary = served
    ? `served by ${served.provider} (${served.model})${failed ? ` after ${failed} failed attempt${failed === 1 ? '' : 's'}` : ''}`
    : facts.attempts.length === 0
      ? 'no attempt made'
      : `all ${facts.attempts.length} attempt${facts.attempts.length === 1 ? '' : 's'} failed`;
  const available = facts.candidates.filter((c) => c.decision !== 'dropped');
  const excluded = facts.candidates.filter((c) => c.decision === 'dropped');
  const strategy = facts.router
    ? (ROUTER_STRATEGIES[facts.router.plugin] ?? facts.router.plugin)
    : facts.planned.length > 1
      ? 'fallback'
      : 'direct';
  return {
    attempt: facts.attempts.length,
    attempts: facts.attempts.map((a) => ({
      provider: a.provider,
      model: a.model,
      status: attemptStatus(a),
      latency_ms: a.latency_ms,
      is_byok: a.is_byok === true,
      ...(a.error ? { error: a.error } : {}),
    })),
    endpoints: {
      total: facts.candidates.length,
      available: available.map((c) => {
        const outcome = facts.attempts.find((a) => a.provider === c.provider && a.model === c.model);
        return {
          model: c.model,
          provider: c.provider,
          selected: served?.provider === c.provider && served.model === c.model,
          outcome: outcome?.status ?? 'not_tried',
          decision: c.decision,
          reason: c.reason,
        };
      }),
      excluded: excluded.map((c) => ({ model: c.model, provider: c.provider, reason: c.reason })),
    },
    is_byok: served?.is_byok === true,
    region: null,
    requested: facts.router?.model ?? facts.requested.model ?? facts.requested.models?.[0] ?? '',
    strategy,
    params: {
      ...facts.router?.params,
      endpoint_order: ENDPOINT_ORDERS[facts.strategy],
      ...(facts.requested.models?.length ? { models: facts.requested.models } : {}),
    },
    summary,
    pipeline: [
      ...(facts.router
        ? [
            stage(facts.router.plugin, facts.router.summary, {
              router: facts.router.model,
              params: facts.router.params,
              models: facts.router.models,
            }),
          ]
        : []),
      ...(facts.skippedRouters ?? []).map((s) => stage(s.plugin, s.reason, {})),
      ...(facts.pipeline ?? []),
      stage('planner', summary, { attempts: facts.attempts }),
    ],
  };
}

/** A routing stage of the pipeline (reference PipelineStage: no guardrail fields, which are strings when present). */
const stage = (name: string, summary: string, data: Record<string, unknown>) => ({ type: 'routing', name, summary, data });

export const wantsServiceMetadata = (headers: Record<string, string | string[] | undefined>) =>
  headers['x-service-metadata'] === 'enabled' || headers['x-service-experimental-metadata'] === 'enabled';

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

/** `service_metadata` (spec 7.2), asked for with `X-Service-Metadata: enabled`. */
export function serviceMetadata(facts: RoutingFacts) {
  const served = facts.attempts.find((a) => a.status === 'success');
  const failed = facts.attempts.filter((a) => a.status === 'failed').length;
  const summary = served
    ? `served by ${served.provider} (${served.model})${failed ? ` after ${failed} failed attempt${failed === 1 ? '' : 's'}` : ''}`
    : facts.attempts.length === 0
      ? 'no attempt made'
      : `all ${facts.attempts.length} attempt${facts.attempts.length === 1 ? '' : 's'} failed`;
  return {
    attempt: facts.attempts.length,
    endpoints: facts.candidates.map((c) => {
      const outcome = facts.attempts.find((a) => a.provider === c.provider && a.model === c.model);
      const status = c.decision === 'dropped' ? 'dropped' : (outcome?.status ?? 'not_tried');
      return { model: c.model, provider: c.provider, status, decision: c.decision, reason: c.reason, ...(outcome?.error ? { error: outcome.error } : {}) };
    }),
    is_byok: false,
    region: null,
    requested: facts.requested,
    strategy: facts.strategy,
    ...(facts.router ? { params: facts.router.params } : {}),
    summary,
    pipeline: [
      ...(facts.router ? [stage(facts.router.plugin, facts.router.summary, { router: facts.router.model, params: facts.router.params, models: facts.router.models })] : []),
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

import type { Attributes } from '@opentelemetry/api';
import type { Endpoint } from '../../catalog/types.js';
import type { RoutedRequest, Run } from '../../chat/run.js';
import type { ObservedEnd } from '../../chat/run-observer.js';
import type { Attempt } from '../../routing/plan-attempts.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_REQUEST_TOP_P,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
} from './gen-ai-attributes.js';

/** The gateway's own attributes, beside the conventions'. */
const ATTR_GATEWAY_MODEL = 'gateway.model';
export const ATTR_GATEWAY_GENERATION_ID = 'gateway.generation_id';
const ATTR_GATEWAY_COST_USD = 'gateway.cost_usd';
export const ATTR_GATEWAY_ATTEMPT_OUTCOME = 'gateway.attempt.outcome';

/** The GenAI operation of a run's task: chat is the conventions' own, others are named by their task. */
export const operationName = (run: Run<RoutedRequest>): string => run.task;

/** A request's generation settings, when it has them (a chat's), under the conventions' names. */
function requestSettings(request: RoutedRequest): Attributes {
  const { max_tokens, max_completion_tokens, temperature, top_p, stream } = request as Record<string, unknown>;
  const maxTokens = max_completion_tokens ?? max_tokens;
  return {
    ...(typeof maxTokens === 'number' ? { [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: maxTokens } : {}),
    ...(typeof temperature === 'number' ? { [ATTR_GEN_AI_REQUEST_TEMPERATURE]: temperature } : {}),
    ...(typeof top_p === 'number' ? { [ATTR_GEN_AI_REQUEST_TOP_P]: top_p } : {}),
    ...(typeof stream === 'boolean' ? { [ATTR_GEN_AI_REQUEST_STREAM]: stream } : {}),
  };
}

/**
 * An upstream attempt's span: a GenAI client call of the provider, for the model as the provider
 * names it (the catalog's id beside it).
 */
export function attemptAttributes(run: Run<RoutedRequest>, attempt: Attempt<Endpoint>): Attributes {
  return {
    [ATTR_GEN_AI_OPERATION_NAME]: operationName(run),
    [ATTR_GEN_AI_PROVIDER_NAME]: attempt.endpoint.provider,
    [ATTR_GEN_AI_REQUEST_MODEL]: attempt.endpoint.upstreamModel,
    [ATTR_GATEWAY_MODEL]: attempt.modelId,
    [ATTR_GATEWAY_GENERATION_ID]: run.id,
    ...requestSettings(run.request),
  };
}

/** What the serving attempt answered: its id, finish reason, usage and first chunk's time. */
export function answerAttributes(end: ObservedEnd): Attributes {
  const usage = end.usage;
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  return {
    ...(end.upstreamId ? { [ATTR_GEN_AI_RESPONSE_ID]: end.upstreamId } : {}),
    ...(end.finishReason ? { [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [end.finishReason] } : {}),
    ...(usage ? { [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.prompt_tokens, [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.completion_tokens } : {}),
    ...(cached ? { [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: cached } : {}),
    ...(reasoning ? { [ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: reasoning } : {}),
    ...(end.streamed && end.ttftMs != null ? { [ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK]: end.ttftMs / 1000 } : {}),
  };
}

/** A request's span, once its own run ended: the model asked for and the one that served, by whom, and the run's usage and cost. */
export function runAttributes(run: Run<RoutedRequest>, end: ObservedEnd, cost: number): Attributes {
  const requested = run.request.model ?? run.routing.planned[0]?.model;
  return {
    [ATTR_GEN_AI_OPERATION_NAME]: operationName(run),
    ...(requested ? { [ATTR_GEN_AI_REQUEST_MODEL]: requested } : {}),
    ...(end.attempt
      ? { [ATTR_GEN_AI_RESPONSE_MODEL]: end.attempt.modelId, [ATTR_GEN_AI_PROVIDER_NAME]: end.attempt.endpoint.provider }
      : {}),
    ...answerAttributes(end),
    [ATTR_GATEWAY_GENERATION_ID]: run.id,
    [ATTR_GATEWAY_COST_USD]: cost,
  };
}

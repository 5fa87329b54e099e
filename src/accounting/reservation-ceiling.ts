import type { Pricing } from '../catalog/types.js';
import { roundUsd } from '../util/round-usd.js';
import { applicablePricing } from './applicable-pricing.js';
import { computeCost } from './compute-cost.js';

/** The most a request can cost, reserved before it starts. */
export interface CostCeiling {
  usd: number;
  /** For work priced by the token: the completion tokens the ceiling counts, and how many a budget of `usd` would afford with the same prompt. */
  tokens?: { requested: number; affordable(usd: number): number };
}

/** Completion tokens assumed when neither the request nor the catalog (max completion, context window) bounds them. */
export const DEFAULT_COMPLETION_TOKENS = 4_096;

/** One endpoint a chat may be served by, with its context window when the catalog knows it. */
export interface CeilingEndpoint {
  pricing: Pricing;
  maxCompletionTokens?: number | undefined;
  contextLength?: number | undefined;
}

export interface ChatCeilingInput {
  /** The prompt as the gateway counts it (reservation-prompt.ts). */
  promptTokens: number;
  /** The request's max_completion_tokens (or max_tokens), when it gave one. */
  maxTokens?: number | undefined;
  /** Every endpoint the plan may use. */
  endpoints: readonly CeilingEndpoint[];
  /** Searches already made for the request (the web plugin's), billed at web_search. */
  webSearches?: number;
  /** The request's start: time-window prices apply as of it. */
  at: Date;
  defaultCompletionTokens?: number;
}

/**
 * The completion tokens an endpoint can write for this request: what the
 * client asked (never more than the endpoint writes, nor than its context
 * leaves after the prompt), else the endpoint's maximum completion, else
 * what its context window leaves, else the default.
 */
export function completionBound(
  endpoint: CeilingEndpoint,
  promptTokens: number,
  maxTokens: number | undefined,
  fallback = DEFAULT_COMPLETION_TOKENS,
): number {
  const room = endpoint.contextLength !== undefined ? Math.max(1, endpoint.contextLength - promptTokens) : Infinity;
  const most = Math.min(endpoint.maxCompletionTokens ?? room, room);
  const bound = Math.min(maxTokens ?? most, most);
  return Number.isFinite(bound) ? bound : fallback;
}

/**
 * A chat's ceiling: on each endpoint of the plan, the prompt at the highest
 * price a prompt token can be billed (a cache write may cost more than a
 * plain read), the completion bound at the highest a completion token can be
 * (reasoning may be priced apart), the per-request price and the searches
 * already made; the most expensive endpoint sets it. `affordable` answers
 * with that endpoint's prices.
 */
export function chatCeiling(input: ChatCeilingInput): CostCeiling {
  let ceiling: CostCeiling = { usd: 0 };
  for (const endpoint of input.endpoints) {
    const candidate = endpointCeiling(endpoint, input);
    if (candidate.usd >= ceiling.usd) ceiling = candidate;
  }
  return ceiling;
}

function endpointCeiling(endpoint: CeilingEndpoint, input: ChatCeilingInput): CostCeiling {
  const prices = applicablePricing(endpoint.pricing, input.promptTokens, input.at);
  const prompt = Math.max(prices.prompt, prices.input_cache_write ?? 0);
  const completion = Math.max(prices.completion, prices.internal_reasoning ?? 0);
  const fixed = (prices.request ?? 0) + (input.webSearches ?? 0) * (prices.web_search ?? 0);
  const keep = 1 - (prices.discount ?? 0);
  const tokens = completionBound(endpoint, input.promptTokens, input.maxTokens, input.defaultCompletionTokens);
  const beforeCompletion = input.promptTokens * prompt + fixed;
  return {
    usd: roundUsd((beforeCompletion + tokens * completion) * keep),
    tokens: {
      requested: tokens,
      affordable: (usd) => {
        if (completion * keep <= 0) return usd >= beforeCompletion * keep ? tokens : 0;
        return Math.max(0, Math.min(tokens, Math.floor((usd / keep - beforeCompletion) / completion + 1e-9)));
      },
    },
  };
}

/**
 * The ceiling of work billed by what it reads (a rerank, embeddings): on each
 * endpoint, its input tokens at the prompt price and its units at the
 * `request` price (a rerank's search units, one request otherwise); the most
 * expensive sets it.
 */
export function inputCeiling(input: {
  tokens: number;
  requests: number;
  endpoints: readonly Pick<CeilingEndpoint, 'pricing'>[];
  at: Date;
}): CostCeiling {
  const usage = { prompt_tokens: input.tokens, completion_tokens: 0, total_tokens: input.tokens };
  return { usd: Math.max(0, ...input.endpoints.map((e) => computeCost(e.pricing, usage, input.at, input.requests).total)) };
}

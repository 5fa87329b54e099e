import type { Pricing } from '../catalog/types.js';
import type { Usage } from '../protocol/chat.js';
import { roundUsd } from '../util/round-usd.js';
import { applicablePricing } from './applicable-pricing.js';
import { countOrZero } from './check-usage.js';

/** Units other than tokens and requests that a model bills. */
export interface BilledUnits {
  images?: number | undefined;
  /** Tokens of the images sent to an image model to be edited, at its `image_token` price. */
  imageTokens?: number | undefined;
  characters?: number | undefined;
  /** Seconds of audio transcribed: any finite amount ≥ 0, not only whole ones. */
  seconds?: number | undefined;
}

const secondsOrZero = (value: number | undefined): number => (value !== undefined && Number.isFinite(value) && value > 0 ? value : 0);

export interface CostBreakdown {
  total: number;
  /** What cache reads saved (positive) or cache writes added (negative) against the plain prompt price. */
  cacheDiscount: number;
}

/**
 * USD for one generation from the endpoint's pricing (USD per unit). Cached
 * prompt tokens are priced at input_cache_read and cache writes at
 * input_cache_write, each falling back to the prompt price; reasoning tokens
 * (part of the completion count) at internal_reasoning when the endpoint
 * prices them apart; searches the gateway ran for the answer
 * (usage.server_tool_use_details.web_search_requests) at web_search. The
 * endpoint's conditional overrides (long-context and time-window prices)
 * apply as of `at`, the request's start. A figure billing cannot take (see
 * checkUsage, which settlement runs first) counts as none, so that the cost
 * is always a finite amount ≥ 0. `units` are what an image or speech model
 * is billed by: images made at the endpoint's `image` price (and the tokens
 * of the images it was sent to edit at its `image_token` price), characters
 * spoken at its `character` price, seconds of audio transcribed at its
 * `audio_second` price.
 */
export function computeCost(
  basePricing: Pricing,
  usage: Usage | undefined,
  at: Date,
  requests = 1,
  units: BilledUnits = {},
): CostBreakdown {
  const promptTokens = countOrZero(usage?.prompt_tokens);
  const pricing = applicablePricing(basePricing, promptTokens, at);
  const prompt = pricing.prompt ?? 0;
  const completion = pricing.completion ?? 0;
  const cached = countOrZero(usage?.prompt_tokens_details?.cached_tokens);
  const cacheWrite = countOrZero(usage?.prompt_tokens_details?.cache_write_tokens);
  const plainPrompt = Math.max(0, promptTokens - cached - cacheWrite);
  const reasoning = pricing.internal_reasoning !== undefined ? countOrZero(usage?.completion_tokens_details?.reasoning_tokens) : 0;
  const plainCompletion = Math.max(0, countOrZero(usage?.completion_tokens) - reasoning);

  const cacheRead = cached * (pricing.input_cache_read ?? prompt);
  const cacheWriteCost = cacheWrite * (pricing.input_cache_write ?? prompt);
  const gross =
    plainPrompt * prompt +
    cacheRead +
    cacheWriteCost +
    plainCompletion * completion +
    reasoning * (pricing.internal_reasoning ?? completion) +
    requests * (pricing.request ?? 0) +
    countOrZero(units.images) * (pricing.image ?? 0) +
    countOrZero(units.imageTokens) * (pricing.image_token ?? 0) +
    countOrZero(units.characters) * (pricing.character ?? 0) +
    secondsOrZero(units.seconds) * (pricing.audio_second ?? 0) +
    countOrZero(usage?.server_tool_use_details?.web_search_requests) * (pricing.web_search ?? 0);
  const total = gross * (1 - (pricing.discount ?? 0));
  const cacheDiscount = cached * prompt - cacheRead + (cacheWrite * prompt - cacheWriteCost);
  return {
    total: Number.isFinite(total) && total > 0 ? roundUsd(total) : 0,
    cacheDiscount: Number.isFinite(cacheDiscount) ? roundUsd(cacheDiscount) : 0,
  };
}

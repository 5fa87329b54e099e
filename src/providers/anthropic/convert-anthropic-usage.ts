import type { Usage } from '../../protocol/chat.js';
import { reportedCount } from '../../protocol/usage-counts.js';
import type { AnthropicUsage } from './anthropic-messages-api-types.js';

/**
 * Canonical usage from Anthropic's. Anthropic counts the prompt in three
 * parts, priced apart: input_tokens (after the last cache breakpoint),
 * cache_read_input_tokens and cache_creation_input_tokens. The canonical
 * prompt_tokens is their sum, with the cache reads as cached_tokens and the
 * cache writes as cache_write_tokens, so that pricing can tell them apart.
 * Thinking is part of output_tokens; its own count is kept when Anthropic
 * gives it. A part that is no count makes the prompt none (checkUsage
 * replaces it); each figure is passed on as sent, to be checked.
 */
export function convertAnthropicUsage(usage: AnthropicUsage): Usage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const promptTokens = reportedCount(usage.input_tokens) + reportedCount(cacheRead) + reportedCount(cacheWrite);
  const completionTokens = usage.output_tokens ?? 0;
  const converted: Usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cacheRead, cache_write_tokens: cacheWrite },
  };
  const thinkingTokens = usage.output_tokens_details?.thinking_tokens;
  if (thinkingTokens != null) converted.completion_tokens_details = { reasoning_tokens: thinkingTokens };
  return converted;
}

import type { Usage } from '../../chat/types.js';
import type { GeminiUsageMetadata } from './gemini-api-types.js';

/**
 * Canonical usage from Gemini's usageMetadata. Gemini counts thoughts apart
 * from the candidates, and bills both as output: completion tokens are their
 * sum, with the thoughts also given as reasoning tokens. Prompt tokens
 * include the results of built-in tools (billed as input) and the cached
 * prefix, which is also given as cached tokens. A details object appears
 * only when Gemini sent its count.
 */
export function convertGeminiUsage(usage: GeminiUsageMetadata): Usage {
  const promptTokens = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
  const completionTokens = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  const converted: Usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: usage.totalTokenCount ?? promptTokens + completionTokens,
  };
  if (usage.cachedContentTokenCount !== undefined) converted.prompt_tokens_details = { cached_tokens: usage.cachedContentTokenCount };
  if (usage.thoughtsTokenCount !== undefined) converted.completion_tokens_details = { reasoning_tokens: usage.thoughtsTokenCount };
  return converted;
}

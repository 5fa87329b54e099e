import type { Usage } from '../../protocol/chat.js';
import { reportedCount } from '../../protocol/usage-counts.js';
import type { GeminiUsageMetadata } from './gemini-api-types.js';

/**
 * Canonical usage from Gemini's usageMetadata. Gemini counts thoughts apart
 * from the candidates, and bills both as output: completion tokens are their
 * sum, with the thoughts also given as reasoning tokens. Prompt tokens
 * include the results of built-in tools (billed as input) and the cached
 * prefix, which is also given as cached tokens. A details object appears
 * only when Gemini sent its count. A part that is no count makes its sum
 * none (checkUsage replaces it); each figure is passed on as sent, to be checked.
 */
export function convertGeminiUsage(usage: GeminiUsageMetadata): Usage {
  const promptTokens = reportedCount(usage.promptTokenCount) + reportedCount(usage.toolUsePromptTokenCount);
  const completionTokens = reportedCount(usage.candidatesTokenCount) + reportedCount(usage.thoughtsTokenCount);
  const converted: Usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: usage.totalTokenCount ?? promptTokens + completionTokens,
  };
  if (usage.cachedContentTokenCount != null) converted.prompt_tokens_details = { cached_tokens: usage.cachedContentTokenCount };
  if (usage.thoughtsTokenCount != null) converted.completion_tokens_details = { reasoning_tokens: usage.thoughtsTokenCount };
  return converted;
}

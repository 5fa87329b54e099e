import type { Usage } from '../../protocol/chat.js';
import type { OpenAIUsage } from './openai-chat-api-types.js';

/**
 * Canonical usage from an OpenAI-compatible one: the token counts billing
 * needs, with DeepSeek's prompt_cache_hit_tokens read as cached tokens.
 * Host extras (Groq's timings, DeepSeek's cache misses, OpenAI's prediction
 * counts) are left out; a details object appears only when it has a figure.
 * Figures are passed on as sent, to be checked (accounting/check-usage.ts).
 */
export function convertOpenAIUsage(usage: OpenAIUsage): Usage {
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  const converted: Usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: usage.total_tokens ?? promptTokens + completionTokens,
  };
  const promptDetails = counts({
    cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens,
    audio_tokens: usage.prompt_tokens_details?.audio_tokens,
  });
  if (promptDetails) converted.prompt_tokens_details = promptDetails;
  const completionDetails = counts({
    reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens,
    audio_tokens: usage.completion_tokens_details?.audio_tokens,
  });
  if (completionDetails) converted.completion_tokens_details = completionDetails;
  return converted;
}

/** The entries that hold a figure, or undefined when none does. */
function counts<K extends string>(entries: Record<K, number | null | undefined>): Partial<Record<K, number>> | undefined {
  const present = Object.entries(entries).filter((entry): entry is [string, number] => entry[1] != null);
  return present.length > 0 ? (Object.fromEntries(present) as Partial<Record<K, number>>) : undefined;
}

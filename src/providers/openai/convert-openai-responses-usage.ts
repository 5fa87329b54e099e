import type { Usage } from '../../protocol/chat.js';
import type { ResponsesUsage } from '../../protocol/responses.js';

/** Canonical usage from a Response's (input/output tokens and their details); figures are passed on as sent, to be checked. */
export function convertOpenAIResponsesUsage(usage: Partial<ResponsesUsage> | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  const prompt = usage.input_tokens ?? 0;
  const completion = usage.output_tokens ?? 0;
  const converted: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.total_tokens ?? prompt + completion,
  };
  const cached = usage.input_tokens_details?.cached_tokens;
  if (cached != null) converted.prompt_tokens_details = { cached_tokens: cached };
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (reasoning != null) converted.completion_tokens_details = { reasoning_tokens: reasoning };
  return converted;
}

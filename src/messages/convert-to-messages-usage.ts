import type { Usage } from '../protocol/chat.js';
import type { MessagesUsage } from '../protocol/messages.js';

/**
 * Anthropic's usage for canonical usage (pure). Anthropic's input_tokens
 * leaves out what was read from or written to the prompt cache, which it
 * counts apart; the canonical prompt_tokens holds all three. The gateway's
 * cost, when the usage has it, rides along as the reference's Messages usage has it.
 */
export function convertToMessagesUsage(usage: Usage | undefined): MessagesUsage {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const written = usage?.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached - written),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    ...(usage?.cost !== undefined ? { cost: usage.cost } : {}),
  };
}

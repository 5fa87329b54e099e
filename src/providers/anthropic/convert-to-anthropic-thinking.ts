import type { ChatRequest, ReasoningEffort } from '../../protocol/chat.js';

/**
 * The share of max_tokens each effort may spend thinking. Thinking tokens
 * count against Anthropic's max_tokens as reasoning tokens count against
 * max_completion_tokens in the canonical API, so an effort is a share of
 * that same limit, and what is left is for the answer.
 */
const THINKING_SHARE: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 0.1,
  low: 0.2,
  medium: 0.5,
  high: 0.8,
  xhigh: 0.9,
  max: 0.95,
};

/** Anthropic refuses a smaller budget. */
const MIN_THINKING_BUDGET = 1024;
/** No Claude model writes more in one answer. */
const MAX_THINKING_BUDGET = 128_000;

/**
 * Anthropic's extended thinking for a request, or undefined for none (pure).
 * The budget is reasoning.max_tokens when given, else the effort's share of
 * max_tokens (`reasoning: {enabled: true}` alone means medium), kept between
 * Anthropic's minimum and below max_tokens, as Anthropic requires. When
 * max_tokens leaves no room for the minimum, there is no thinking: the
 * client's token limit wins over its wish to think.
 */
export function convertToAnthropicThinking(
  request: ChatRequest,
  maxTokens: number,
): { type: 'enabled'; budget_tokens: number } | undefined {
  const { reasoning } = request;
  const effort = reasoning?.effort ?? request.reasoning_effort ?? (reasoning?.enabled === true ? 'medium' : undefined);
  if (reasoning?.enabled === false || effort === 'none') return undefined;
  const requested = reasoning?.max_tokens ?? (effort != null ? Math.round(maxTokens * THINKING_SHARE[effort]) : undefined);
  if (requested == null) return undefined;
  const budget = Math.min(Math.max(requested, MIN_THINKING_BUDGET), MAX_THINKING_BUDGET, maxTokens - 1);
  return budget >= MIN_THINKING_BUDGET ? { type: 'enabled', budget_tokens: budget } : undefined;
}

import type { ChatRequest, ReasoningEffort } from '../../protocol/chat.js';
import type { GeminiThinkingConfig } from './gemini-api-types.js';
import { isGemini3OrLater } from './is-gemini-3-or-later.js';

/**
 * Gemini 3's levels for each effort. Gemini 3 cannot switch thinking off,
 * so "none" asks for the least there is; above "high" there is nothing more.
 */
const THINKING_LEVELS: Record<ReasoningEffort, NonNullable<GeminiThinkingConfig['thinkingLevel']>> = {
  none: 'minimal',
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/**
 * Gemini 2.5's budgets for each effort. 512 is the smallest that every 2.5
 * model accepts (Flash-Lite's floor), 24 576 the largest (Flash's ceiling),
 * so no effort is refused for its number alone.
 */
const THINKING_BUDGETS: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24_576,
  xhigh: 24_576,
  max: 24_576,
};

/**
 * Gemini's thinkingConfig for the request's reasoning settings, or undefined
 * when the request says nothing about reasoning (the model's default then).
 * An explicit token budget (reasoning.max_tokens) is sent as it is; an effort
 * becomes a thinkingLevel for Gemini 3 and a thinkingBudget for older models
 * (one or the other: Gemini refuses both). Thoughts come back (as
 * `reasoning`) whenever reasoning is asked for, unless reasoning.exclude
 * says otherwise or thinking is off.
 */
export function convertToGeminiThinkingConfig(request: ChatRequest, upstreamModel: string): GeminiThinkingConfig | undefined {
  const reasoning = request.reasoning ?? {};
  const effort = reasoning.effort ?? request.reasoning_effort ?? (reasoning.enabled === false ? 'none' : undefined);
  const budget = reasoning.max_tokens;
  if (effort == null && budget == null && reasoning.enabled !== true && reasoning.summary == null) return undefined;

  const config: GeminiThinkingConfig = {};
  // Switching thinking off wins over a budget given beside it.
  if (budget != null && effort !== 'none') config.thinkingBudget = budget;
  else if (effort != null && isGemini3OrLater(upstreamModel)) config.thinkingLevel = THINKING_LEVELS[effort];
  else if (effort != null) config.thinkingBudget = THINKING_BUDGETS[effort];
  if (effort !== 'none' && reasoning.exclude !== true) config.includeThoughts = true;
  return config;
}

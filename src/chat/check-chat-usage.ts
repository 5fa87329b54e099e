import { type CheckedUsage, checkUsage, tokenCapacity, UNKNOWN_CONTEXT_TOKENS, type UsageBounds } from '../accounting/check-usage.js';
import type { Endpoint } from '../catalog/types.js';
import { loadTokenCounter, type TokenCounter } from '../plugins/shared/token-counter.js';
import type { ChatCompletion, ChatRequest, Usage } from '../protocol/chat.js';
import { AnswerText, countPromptTokens } from './estimate-tokens.js';

/** Request parameters of an endpoint that reasons, and so may spend tokens its answer does not show. */
const REASONING_PARAMETERS = new Set(['reasoning', 'reasoning_effort', 'include_reasoning']);

/** What an endpoint's figures must fit for an answer of this text (an endpoint that does not list its parameters may reason). */
export function usageBounds(
  endpoint: Pick<Endpoint, 'contextLength' | 'maxCompletionTokens' | 'supportedParameters'>,
  answer: AnswerText,
): UsageBounds {
  const window = endpoint.contextLength ?? UNKNOWN_CONTEXT_TOKENS;
  return {
    maxPromptTokens: window,
    maxCompletionTokens: endpoint.maxCompletionTokens ?? window,
    answerCapacity: tokenCapacity(answer.chars, answer.pieces),
    mayHideTokens: endpoint.supportedParameters?.some((p) => REASONING_PARAMETERS.has(p)) ?? true,
  };
}

/** The text of a non-streamed answer: every choice's content, reasoning, refusal and tool calls. */
export function answerTextOf(completion: Pick<ChatCompletion, 'choices'>): AnswerText {
  const answer = new AnswerText();
  completion.choices.forEach(({ message }, i) => {
    if (i > 0) answer.addPiece();
    answer.add(message.content);
    answer.add(message.reasoning);
    answer.add(message.refusal);
    for (const call of message.tool_calls ?? []) {
      answer.addPiece();
      answer.add(call.function.name);
      answer.add(call.function.arguments);
    }
  });
  return answer;
}

/**
 * The usage to bill for a chat answer (checkUsage): the upstream's figures
 * when they can be billed, else the tokenizer's counts of the request and of
 * the answer received. The tokenizer is loaded and run only then.
 */
export async function checkChatUsage(
  reported: Usage | undefined,
  request: Pick<ChatRequest, 'messages' | 'tools' | 'response_format'>,
  endpoint: Pick<Endpoint, 'contextLength' | 'maxCompletionTokens' | 'supportedParameters'>,
  answer: AnswerText,
  tokens: () => Promise<TokenCounter> = loadTokenCounter,
): Promise<CheckedUsage> {
  const bounds = usageBounds(endpoint, answer);
  const trusted = checkUsage(reported, bounds);
  if (trusted) return trusted;
  const counter = await tokens();
  return checkUsage(reported, bounds, { prompt: countPromptTokens(request, counter), completion: answer.count(counter) });
}

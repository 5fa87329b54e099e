import { estimatePromptTokens } from '../chat/estimate-tokens.js';
import type { ChatRequest } from '../protocol/chat.js';
import { chatTexts, withChatTexts } from '../guardrails/chat-texts.js';
import type { RerankRequest } from '../protocol/rerank.js';
import type { GuardedRequestView } from './guardrail-stage.js';

/** A chat request as guardrails read it: its messages' texts, the prompt estimate and the completion limit. */
export const CHAT_VIEW: GuardedRequestView<ChatRequest> = {
  texts: chatTexts,
  withTexts: withChatTexts,
  promptTokens: (request) => estimatePromptTokens(request.messages),
  maxCompletionTokens: {
    get: (request) => request.max_completion_tokens,
    set: (request, value) => ({ ...request, max_completion_tokens: value }),
  },
};

/** A rerank as guardrails read it: the query and the documents are the user's text; it has no token limits to enforce. */
export const RERANK_VIEW: GuardedRequestView<RerankRequest> = {
  texts: (request) => [request.query, ...request.documents].map((text) => ({ role: 'user', text })),
  withTexts: (request, texts) => ({ ...request, query: texts[0]?.text ?? request.query, documents: request.documents.map((d, i) => texts[i + 1]?.text ?? d) }),
};

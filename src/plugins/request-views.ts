import { estimatePromptTokens } from '../chat/estimate-tokens.js';
import { chatTexts, withChatTexts } from '../guardrails/chat-texts.js';
import type { ChatRequest } from '../protocol/chat.js';
import type { DecisionsRequest } from '../protocol/decisions.js';
import type { EmbeddingsRequest } from '../protocol/embeddings.js';
import type { ImageRequest } from '../protocol/images.js';
import type { RerankRequest } from '../protocol/rerank.js';
import type { SpeechRequest } from '../protocol/speech.js';
import type { TranscriptionRequest } from '../protocol/transcription.js';
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

/**
 * A decisions request as guardrails read it: the state (JSON read as its
 * text) is the user's; a redacted JSON state goes on as the redacted text,
 * which the model reads as it would the JSON. Questions are the caller's own.
 */
export const DECISIONS_VIEW: GuardedRequestView<DecisionsRequest> = {
  texts: (request) => [{ role: 'user', text: typeof request.state === 'string' ? request.state : JSON.stringify(request.state) }],
  withTexts: (request, texts) => {
    const text = texts[0]?.text;
    const unchanged = text === undefined || text === (typeof request.state === 'string' ? request.state : JSON.stringify(request.state));
    return unchanged ? request : { ...request, state: text };
  },
};

/** A rerank as guardrails read it: the query and the documents are the user's text; it has no token limits to enforce. */
export const RERANK_VIEW: GuardedRequestView<RerankRequest> = {
  texts: (request) => [request.query, ...request.documents].map((text) => ({ role: 'user', text })),
  withTexts: (request, texts) => ({
    ...request,
    query: texts[0]?.text ?? request.query,
    documents: request.documents.map((d, i) => texts[i + 1]?.text ?? d),
  }),
};

/**
 * Embeddings as guardrails read them: each text is the user's, and what a
 * rule redacts is embedded redacted. Token arrays carry no text to read.
 */
export const EMBEDDINGS_VIEW: GuardedRequestView<EmbeddingsRequest> = {
  texts: ({ input }) => (input.kind === 'text' ? input.texts.map((text) => ({ role: 'user', text })) : []),
  withTexts: (request, texts) =>
    request.input.kind === 'text'
      ? { ...request, input: { kind: 'text', texts: request.input.texts.map((t, i) => texts[i]?.text ?? t) } }
      : request,
};

/** An image request as guardrails read it: the prompt is the user's text. */
export const IMAGES_VIEW: GuardedRequestView<ImageRequest> = {
  texts: (request) => [{ role: 'user', text: request.prompt }],
  withTexts: (request, texts) => ({ ...request, prompt: texts[0]?.text ?? request.prompt }),
};

/** A speech request as guardrails read it: the text to speak is the user's. */
export const SPEECH_VIEW: GuardedRequestView<SpeechRequest> = {
  texts: (request) => [{ role: 'user', text: request.input }],
  withTexts: (request, texts) => ({ ...request, input: texts[0]?.text ?? request.input }),
};

/** A transcription as guardrails read it: its prompt is the user's text (the audio is not text to read). */
export const TRANSCRIPTION_VIEW: GuardedRequestView<TranscriptionRequest> = {
  texts: (request) => (request.prompt !== undefined ? [{ role: 'user', text: request.prompt }] : []),
  withTexts: (request, texts) => (request.prompt !== undefined ? { ...request, prompt: texts[0]?.text ?? request.prompt } : request),
};

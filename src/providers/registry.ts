import { anthropicChatAdapter } from './anthropic/index.js';
import { cohereRerankAdapter } from './cohere/index.js';
import { geminiChatAdapter } from './gemini/index.js';
import { geminiVideosAdapter } from './gemini-videos/index.js';
import { jinaRerankAdapter } from './jina/index.js';
import { localRerankAdapter } from './local/index.js';
import type { ChatAdapter, ModerationAdapter, RerankAdapter, VideoAdapter } from '../protocol/adapters.js';
import { openAIChatAdapter } from './openai/index.js';
import { openAIVideosAdapter } from './openai-videos/index.js';
import { openAIModerationAdapter } from './openai-moderation/index.js';

/** The chat adapter of each provider kind; a config naming any other kind is refused at start. */
export const CHAT_ADAPTERS: Readonly<Record<string, ChatAdapter>> = {
  openai: openAIChatAdapter,
  anthropic: anthropicChatAdapter,
  gemini: geminiChatAdapter,
};

/** The rerank adapter of each provider kind; `local` ranks in process (BM25). */
export const RERANK_ADAPTERS: Readonly<Record<string, RerankAdapter>> = {
  cohere: cohereRerankAdapter,
  jina: jinaRerankAdapter,
  local: localRerankAdapter,
};

/** The video-job adapter of each provider kind: OpenAI's Videos API on `openai` providers, Veo on `gemini` ones. */
export const VIDEO_ADAPTERS: Readonly<Record<string, VideoAdapter>> = {
  openai: openAIVideosAdapter,
  gemini: geminiVideosAdapter,
};

/** The moderation adapter of each provider kind (the moderation plugin's provider): OpenAI's moderation API on `openai` providers. */
export const MODERATION_ADAPTERS: Readonly<Record<string, ModerationAdapter>> = {
  openai: openAIModerationAdapter,
};

/** Every kind some adapter speaks, for chat, rerank or video. */
export const PROVIDER_KINDS: readonly string[] = [
  ...new Set([...Object.keys(CHAT_ADAPTERS), ...Object.keys(RERANK_ADAPTERS), ...Object.keys(VIDEO_ADAPTERS)]),
];

import type {
  ChatAdapter,
  DecisionsAdapter,
  EmbeddingsAdapter,
  ImagesAdapter,
  ModerationAdapter,
  RerankAdapter,
  SpeechAdapter,
  TranscriptionAdapter,
  VideoAdapter,
} from '../protocol/adapters.js';
import { anthropicChatAdapter } from './anthropic/index.js';
import { cohereEmbeddingsAdapter, cohereRerankAdapter } from './cohere/index.js';
import { decisionsAdapter } from './decisions/decisions-adapter.js';
import { geminiChatAdapter, geminiEmbeddingsAdapter } from './gemini/index.js';
import { geminiVideosAdapter } from './gemini-videos/index.js';
import { jinaEmbeddingsAdapter, jinaRerankAdapter } from './jina/index.js';
import { localRerankAdapter } from './local/index.js';
import {
  openAIChatAdapter,
  openAIEmbeddingsAdapter,
  openAIImagesAdapter,
  openAISpeechAdapter,
  openAITranscriptionAdapter,
} from './openai/index.js';
import { openAIModerationAdapter } from './openai-moderation/index.js';
import { openAIVideosAdapter } from './openai-videos/index.js';

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

/** The adapter of each provider kind whose hosts serve decision models natively (the Decisions API at `{base URL}/decisions`). */
export const DECISIONS_ADAPTERS: Readonly<Record<string, DecisionsAdapter>> = {
  openai: decisionsAdapter,
};

/** The embeddings adapter of each provider kind: OpenAI's API (and its copies), Gemini's batchEmbedContents, Cohere's embed v2, Jina's. */
export const EMBEDDINGS_ADAPTERS: Readonly<Record<string, EmbeddingsAdapter>> = {
  openai: openAIEmbeddingsAdapter,
  gemini: geminiEmbeddingsAdapter,
  cohere: cohereEmbeddingsAdapter,
  jina: jinaEmbeddingsAdapter,
};

/** The image generation adapter of each provider kind: OpenAI's images API. */
export const IMAGES_ADAPTERS: Readonly<Record<string, ImagesAdapter>> = {
  openai: openAIImagesAdapter,
};

/** The text-to-speech adapter of each provider kind: OpenAI's audio API. */
export const SPEECH_ADAPTERS: Readonly<Record<string, SpeechAdapter>> = {
  openai: openAISpeechAdapter,
};

/** The speech-to-text adapter of each provider kind: OpenAI's audio API. */
export const TRANSCRIPTION_ADAPTERS: Readonly<Record<string, TranscriptionAdapter>> = {
  openai: openAITranscriptionAdapter,
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

/** Every kind some adapter speaks, for chat, rerank, embeddings or video. */
export const PROVIDER_KINDS: readonly string[] = [
  ...new Set([
    ...Object.keys(CHAT_ADAPTERS),
    ...Object.keys(RERANK_ADAPTERS),
    ...Object.keys(EMBEDDINGS_ADAPTERS),
    ...Object.keys(VIDEO_ADAPTERS),
  ]),
];

/** The kinds that serve each task, for the start-time check that every endpoint can be served (catalog/assert-servable.ts). */
export const KINDS_BY_TASK = {
  chat: Object.keys(CHAT_ADAPTERS),
  rerank: Object.keys(RERANK_ADAPTERS),
  embeddings: Object.keys(EMBEDDINGS_ADAPTERS),
  image: Object.keys(IMAGES_ADAPTERS),
  speech: Object.keys(SPEECH_ADAPTERS),
  transcription: Object.keys(TRANSCRIPTION_ADAPTERS),
  video: Object.keys(VIDEO_ADAPTERS),
  decisions: Object.keys(DECISIONS_ADAPTERS),
};

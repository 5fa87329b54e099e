import type { Architecture } from './types.js';

/** Long enough for a non-streamed reasoning answer; a stream's first byte comes far sooner. */
export const DEFAULT_TIMEOUT_MS = 300_000;

/** What a model is assumed to be when nothing says otherwise. */
export const TEXT_ONLY: Architecture = { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Other' };

/** A rerank model: text in, relevance scores out ("rerank" is the reference's output modality for it). */
export const RERANK: Architecture = { input_modalities: ['text'], output_modalities: ['rerank'], tokenizer: 'Other' };

/** An embeddings model: text in, vectors out ("embeddings" is the reference's output modality for it). */
export const EMBEDDINGS: Architecture = { input_modalities: ['text'], output_modalities: ['embeddings'], tokenizer: 'Other' };

/** An image generation model: a prompt in, images out. */
export const IMAGE: Architecture = { input_modalities: ['text'], output_modalities: ['image'], tokenizer: 'Other' };

/** A text-to-speech model: text in, spoken audio out ("speech" is the reference's output modality for it). */
export const SPEECH: Architecture = { input_modalities: ['text'], output_modalities: ['speech'], tokenizer: 'Other' };
/** A speech-to-text model: audio in, its transcript out ("transcription" is the reference's output modality for it). */
export const TRANSCRIPTION: Architecture = { input_modalities: ['audio'], output_modalities: ['transcription'], tokenizer: 'Other' };

/** A decision model: a state and typed questions in, probabilities out (the Decisions API), never text. */
export const DECISIONS: Architecture = { input_modalities: ['text'], output_modalities: ['decisions'], tokenizer: 'Other' };

/** A video generation model: a prompt (and frame images) in, video out. */
export const VIDEO: Architecture = { input_modalities: ['text', 'image'], output_modalities: ['video'], tokenizer: 'Other' };

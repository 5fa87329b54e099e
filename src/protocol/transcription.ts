/**
 * The canonical speech-to-text request and answer (OpenAI's POST
 * /audio/transcriptions). Adapters translate them to and from each
 * provider's protocol; the gateway renders the client's format itself.
 */

/** The formats a client may ask for (OpenAI's; diarized_json needs a diarizing model and is not served). */
export const TRANSCRIPTION_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];

/** The uploaded audio, held whole (up to the upload cap) so that a fallback can send it again. */
export interface AudioFile {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

export interface TranscriptionRequest {
  model: string;
  file: AudioFile;
  /** ISO-639-1 language of the audio. */
  language?: string;
  /** Text to guide the model's style or continue a previous segment. */
  prompt?: string;
  response_format: TranscriptionFormat;
  temperature?: number;
  /** Word and segment timestamps (verbose_json only). */
  timestamp_granularities?: ('word' | 'segment')[];
  provider?: Record<string, unknown> | null;
  user?: string;
}

export interface TranscriptionSegment {
  id: number;
  start: number;
  end: number;
  text: string;
  [field: string]: unknown;
}

export interface TranscriptionWord {
  word: string;
  start: number;
  end: number;
}

/**
 * An adapter's answer, always detailed (the adapter asks the provider for
 * the most it gives for the client's format): the text, and the duration,
 * language, segments and words when the provider gave them, and its usage
 * figures as they came (checked before billing).
 */
export interface UpstreamTranscription {
  text: string;
  language?: string;
  /** Seconds of audio, as the provider reported it (verbose_json's `duration`). */
  duration?: unknown;
  segments?: TranscriptionSegment[];
  words?: TranscriptionWord[];
  /** OpenAI's usage: `{type: "duration", seconds}` or `{type: "tokens", input_tokens, output_tokens}`. */
  usage?: unknown;
}

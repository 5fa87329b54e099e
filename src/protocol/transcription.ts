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
  /** Ask for the transcript as server-sent events (the gpt-4o transcribe models; whisper-1 ignores it). */
  stream?: boolean;
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

/** A piece of text transcribed, as OpenAI streams it (`logprobs` when asked for, `segment_id` when diarized). */
export interface TranscriptTextDelta {
  type: 'transcript.text.delta';
  delta: string;
  [field: string]: unknown;
}

/** The end of a streamed transcript: the whole text and the usage as the provider reported it (checked before billing). */
export interface TranscriptTextDone {
  type: 'transcript.text.done';
  text: string;
  usage?: unknown;
  [field: string]: unknown;
}

export type TranscriptionStreamEvent = TranscriptTextDelta | TranscriptTextDone;

/** What a streamed transcription call gives: the provider's events, or its whole answer when it does not stream (whisper-1). */
export type TranscriptionStream =
  | { kind: 'events'; events: AsyncIterator<TranscriptionStreamEvent> }
  | { kind: 'whole'; answer: UpstreamTranscription };

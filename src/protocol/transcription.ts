/**
 * The canonical speech-to-text request and answer (OpenAI's POST
 * /audio/transcriptions). Adapters translate them to and from each
 * provider's protocol; the gateway renders the client's format itself.
 */

/** The formats a client may ask for (OpenAI's; diarized_json from a diarizing model, gpt-4o-transcribe-diarize). */
export const TRANSCRIPTION_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;
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
  /** How the audio is cut before it is transcribed: OpenAI's `auto`, or its server VAD's settings (a diarizing model needs it past 30 s). */
  chunking_strategy?: ChunkingStrategy;
  /** Up to 4 speakers' names, matching `known_speaker_references` (diarizing models). */
  known_speaker_names?: string[];
  /** A 2-to-10-second sample of each known speaker, as a data URL. */
  known_speaker_references?: string[];
  /** `logprobs`: the tokens' log probabilities with the text (json, the gpt-4o transcribe models). */
  include?: 'logprobs'[];
  /** Ask for the transcript as server-sent events (the gpt-4o transcribe models; whisper-1 ignores it). */
  stream?: boolean;
  provider?: Record<string, unknown> | null;
  user?: string;
}

/** OpenAI's chunking: `auto`, or server-side voice activity detection with its settings. */
export type ChunkingStrategy =
  | 'auto'
  | { type: 'server_vad'; prefix_padding_ms?: number; silence_duration_ms?: number; threshold?: number };

/** A segment of the transcript: verbose_json's (a number id) or diarized_json's (a string id, its `speaker` and `type`). */
export interface TranscriptionSegment {
  id: number | string;
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
  /** The tokens' log probabilities, when asked for (`include[]=logprobs`). */
  logprobs?: unknown[];
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

/** A diarized segment completed, streamed with diarized_json: its id, times, speaker and text. */
export interface TranscriptTextSegment {
  type: 'transcript.text.segment';
  id: string;
  start: number;
  end: number;
  speaker: string;
  text: string;
  [field: string]: unknown;
}

export type TranscriptionStreamEvent = TranscriptTextDelta | TranscriptTextSegment | TranscriptTextDone;

/** What a streamed transcription call gives: the provider's events, or its whole answer when it does not stream (whisper-1). */
export type TranscriptionStream =
  | { kind: 'events'; events: AsyncIterator<TranscriptionStreamEvent> }
  | { kind: 'whole'; answer: UpstreamTranscription };

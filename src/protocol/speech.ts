/** The canonical text-to-speech request (the reference's POST /audio/speech); adapters translate it to each provider's protocol. */
export interface SpeechRequest {
  model: string;
  /** The text to speak; billed by its characters. */
  input: string;
  voice?: string;
  /** The audio format: the reference's `mp3` and `pcm` (its default), or OpenAI's `wav`, `opus`, `aac`, `flac`. */
  response_format: string;
  speed?: number;
  /** OpenAI's voice instructions (gpt-4o-mini-tts). */
  instructions?: string;
  /** OpenAI's `sse`: the audio as speech.audio.delta events and a speech.audio.done with the usage; raw audio (`audio`) unless asked. */
  stream_format?: 'sse' | 'audio';
  provider?: Record<string, unknown> | null;
  user?: string;
}

/**
 * One event of OpenAI's speech stream: speech.audio.delta (`audio`, a
 * base64 piece) or speech.audio.done (`usage`: input_tokens, output_tokens,
 * total_tokens); others pass through as they came.
 */
export interface SpeechStreamEvent {
  type: string;
  audio?: string;
  usage?: unknown;
  [field: string]: unknown;
}

/** The Content-Type of each of OpenAI's audio formats, for an answer that names none. */
const SPEECH_CONTENT_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** The Content-Type of a speech's audio in the format asked for. */
export const speechContentType = (format: string): string => SPEECH_CONTENT_TYPES[format] ?? 'application/octet-stream';

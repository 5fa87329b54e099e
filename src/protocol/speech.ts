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
  provider?: Record<string, unknown> | null;
  user?: string;
}

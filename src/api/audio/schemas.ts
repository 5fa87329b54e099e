import { type Static, Type } from 'typebox';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';

/** The longest text one request speaks (OpenAI's limit). */
export const MAX_SPEECH_CHARACTERS = 4_096;

/**
 * The body of POST /audio/speech: the reference's SpeechRequest (`pcm` by
 * default), with OpenAI's formats, speed, instructions and stream format
 * (`sse`: the audio as events, `audio` the bytes).
 */
export const SpeechRequestBody = Type.Object({
  model: Type.String({ minLength: 1 }),
  input: Type.String({ minLength: 1, maxLength: MAX_SPEECH_CHARACTERS }),
  voice: Type.Optional(Type.String({ minLength: 1 })),
  response_format: Type.Optional(Type.Enum(['mp3', 'pcm', 'wav', 'opus', 'aac', 'flac'])),
  speed: Type.Optional(Type.Number({ minimum: 0.25, maximum: 4 })),
  instructions: Type.Optional(Type.String({ maxLength: 4_096 })),
  stream_format: Type.Optional(Type.Enum(['sse', 'audio'])),
  provider: Type.Optional(ProviderPreferences),
  user: Type.Optional(Type.String()),
});

export type SpeechRequestBody = Static<typeof SpeechRequestBody>;

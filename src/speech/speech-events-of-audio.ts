import type { SpeechStreamEvent } from '../protocol/speech.js';

/**
 * OpenAI's speech events built from raw audio, for a client that asked for
 * SSE of a server that ignored `stream_format`: a speech.audio.delta for each
 * piece as it arrives (base64, each decoding on its own), then a
 * speech.audio.done, which reports no usage since none was given. Stopping
 * the iteration stops reading the audio.
 */
export async function* speechEventsOfAudio(audio: AsyncIterable<Uint8Array>): AsyncGenerator<SpeechStreamEvent> {
  for await (const piece of audio)
    yield { type: 'speech.audio.delta', audio: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64') };
  yield { type: 'speech.audio.done' };
}

import { Readable } from 'node:stream';
import { streamBreak } from '../chat/stream-chat.js';
import type { UpstreamVideoContent } from '../protocol/adapters.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import { type SpeechStreamEvent, speechContentType } from '../protocol/speech.js';
import { UpstreamError } from '../protocol/upstream.js';
import { type SpeechEventStream, settleBrokenSpeech, settleSpokenStream } from './speech-event-stream.js';
import type { SpeechRun, SpeechServices } from './speech-services.js';

/** A speech's audio to send, and when its run is billed: before the first byte, or once the last has gone by. */
export interface SpokenAudio extends UpstreamVideoContent {
  settled: Promise<void>;
}

type Ending = { done: SpeechStreamEvent } | { failure: GatewayError | undefined };

/**
 * Raw audio from a speech served as events: each speech.audio.delta's audio,
 * decoded, passed on as it comes. The run is settled when the stream ends:
 * billed the tokens speech.audio.done reports, or, when it breaks or its
 * client leaves, as a broken SSE speech is. Raw audio has no way to say it
 * failed: a stream that breaks is cut, and the client sees its answer end
 * early (a chunked answer without its last chunk).
 */
export function speechAudioOfEvents(services: SpeechServices, run: SpeechRun, served: SpeechEventStream, signal: AbortSignal): SpokenAudio {
  const { events, attempt } = served;
  let settling: Promise<void> | undefined;
  let adopt!: (settling: Promise<void>) => void;
  const settled = new Promise<void>((resolve) => {
    adopt = resolve;
  });
  // Once: the first end seen is the one billed.
  const settle = (ending: Ending): Promise<void> => {
    if (settling) return settling;
    settling =
      'done' in ending
        ? settleSpokenStream(services, run, served, ending.done).then(() => undefined)
        : settleBrokenSpeech(services, run, served, ending.failure);
    adopt(settling);
    return settling;
  };

  async function* audio(): AsyncGenerator<Buffer> {
    // Until the stream ends or breaks, an end is the client's: it left.
    let ending: Ending = { failure: undefined };
    try {
      let done: SpeechStreamEvent | undefined;
      for (let next = await events.next(); !next.done; next = await events.next()) {
        if (next.value.type === 'speech.audio.done') done = next.value;
        else if (typeof next.value.audio === 'string') yield Buffer.from(next.value.audio, 'base64');
      }
      if (!done) throw new UpstreamError('malformed', 'the stream ended without speech.audio.done');
      ending = { done };
    } catch (error) {
      ending = { failure: streamBreak(error, signal, { closed: body.destroyed }, attempt.endpoint.provider).failure };
      throw error;
    } finally {
      const billed = settle(ending);
      if (!('done' in ending)) await events.return?.();
      await billed;
    }
  }

  const body = Readable.from(audio(), { objectMode: false });
  // A client that leaves before the first read never starts the generator: its run is settled here.
  body.once('close', () => void settle({ failure: undefined }));
  return { contentType: speechContentType(run.request.response_format), contentLength: null, body, settled };
}

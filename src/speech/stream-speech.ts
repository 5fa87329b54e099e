import { runAttempts } from '../chat/run-attempts.js';
import { attemptOptions, noteServed } from '../chat/serve-run.js';
import { failUnservedStream, startKeepAlive, streamBreak } from '../chat/stream-chat.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { GatewayError } from '../protocol/gateway-error.js';
import type { SpeechStreamEvent } from '../protocol/speech.js';
import { UpstreamError } from '../protocol/upstream.js';
import {
  openSpeechEvents,
  type SpeechEventStream,
  servedSpeechEvents,
  settleBrokenSpeech,
  settleSpokenStream,
} from './speech-event-stream.js';
import type { SpeechRun, SpeechServices } from './speech-services.js';

/** The stream's failure as its last event: the spec's error object, which OpenAI's SDK raises as an APIError. */
const errorEvent = (error: GatewayError) =>
  JSON.stringify({
    type: 'error',
    error: { code: error.statusCode, message: error.message, ...(error.metadata ? { metadata: error.metadata } : {}) },
  });

/**
 * A speech with `stream_format: "sse"`, OpenAI's speech.audio.delta events
 * relayed as they come. As for chat, nothing but keep-alive comments reaches
 * the client until an attempt's first event is in hand, so a failure before
 * it falls back. speech.audio.done is held until the ledger row is written:
 * the run is billed its characters and the tokens the event reports
 * (checked, speech-usage.ts) at the serving endpoint's prices, and the event
 * goes out with that cost in its usage. A stream that breaks after its start
 * ends with an error event, billed its characters and its text's tokens
 * (the gateway's count): the audio it never finished reports none.
 */
export async function streamSpeech(
  services: SpeechServices,
  run: SpeechRun,
  sse: SseWriter,
  signal: AbortSignal,
  respondWithError: (error: unknown) => void,
): Promise<void> {
  const keepAlive = startKeepAlive(sse, services.keepAliveAfterMs);
  let served: SpeechEventStream;
  try {
    served = servedSpeechEvents(
      services,
      run,
      await runAttempts(attemptOptions(services, run, signal, openSpeechEvents(services, run, signal))),
    );
  } catch (error) {
    keepAlive.stop();
    return failUnservedStream(services, run, error, { sse, signal, respondWithError }, (failure) => sse.data(errorEvent(failure)));
  }
  keepAlive.stop();
  noteServed(services, run, served.attempt);
  await relay(services, run, served, sse, signal);
}

async function relay(
  services: SpeechServices,
  run: SpeechRun,
  served: SpeechEventStream,
  sse: SseWriter,
  signal: AbortSignal,
): Promise<void> {
  const { events, attempt } = served;
  let done: SpeechStreamEvent | undefined;
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (sse.closed) throw new UpstreamError('aborted', 'the client went away');
      if (next.value.type === 'speech.audio.done') done = next.value;
      else await sse.data(JSON.stringify(next.value));
    }
    if (!done) throw new UpstreamError('malformed', 'the stream ended without speech.audio.done');
  } catch (error) {
    const broke = streamBreak(error, signal, sse, attempt.endpoint.provider);
    if (broke.stopped) await events.return?.();
    await settleBrokenSpeech(services, run, served, broke.failure);
    if (broke.failure) await sse.data(errorEvent(broke.failure));
    return sse.end();
  }
  const usage = await settleSpokenStream(services, run, served, done);
  await sse.data(JSON.stringify({ ...done, usage }));
  sse.end();
}

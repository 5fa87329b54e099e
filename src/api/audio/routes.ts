import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { writeStreamRefusal } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import type { SpeechRequest } from '../../protocol/speech.js';
import { completeSpeech, speechRunCeiling, startSpeechRun } from '../../speech/speech-run.js';
import type { SpeechServices } from '../../speech/speech-services.js';
import { streamSpeech } from '../../speech/stream-speech.js';
import { clientGone, runContext } from '../request-context.js';
import { SpeechRequestBody } from './schemas.js';

/** The fields a speech request uses, picked so that tolerated extras never reach the flow; `pcm` unless asked, as the reference says. */
function toSpeechRequest({
  model,
  input,
  voice,
  response_format,
  speed,
  instructions,
  stream_format,
  provider,
  user,
}: SpeechRequestBody): SpeechRequest {
  const optional = { voice, speed, instructions, stream_format, provider, user };
  return {
    model,
    input,
    response_format: response_format ?? 'pcm',
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

export function audioRoutes(services: SpeechServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Held until its ledger row is written (before the first byte, or once the audio has gone by for an endpoint billed
    // by tokens; an SSE speech's before its done event): a stop closes the database only after.
    app.post('/audio/speech', { onRequest: services.auth.requireKey, schema: { body: SpeechRequestBody } }, async (request, reply) => {
      const signal = clientGone(reply, services.shutdown.signal);
      await services.shutdown.hold(async () => {
        const key = callerKey(request);
        const started = startSpeechRun(services, key, toSpeechRequest(request.body), runContext(request));
        // Admission: the run holds the most it can cost (its characters and tokens) until settleRun charges it, or is released here.
        const reservation = await services.spend.reserve(key, () => speechRunCeiling(started), { id: started.id });
        const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
        try {
          const prepared = await services.pipeline.prepareSpeech(run, signal);
          if (run.request.stream_format === 'sse') {
            reply.hijack();
            const sse = new SseWriter(reply.raw, { 'x-generation-id': run.id, 'x-request-id': request.id });
            return await streamSpeech(services, prepared, sse, signal, (error) => writeStreamRefusal(reply, error));
          }
          const audio = await completeSpeech(services, prepared, signal);
          // The bytes go through as they arrive, never buffered whole.
          void reply.header('x-generation-id', run.id).header('content-type', audio.contentType);
          if (audio.contentLength !== null) void reply.header('content-length', audio.contentLength);
          void reply.send(audio.body);
          await audio.settled;
        } catch (error) {
          throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
        } finally {
          void reservation.release();
        }
      });
      return reply;
    });
  };
}

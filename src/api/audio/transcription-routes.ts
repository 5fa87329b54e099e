import type { FastifyPluginAsync } from 'fastify';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { isMultipart, takeMultipart } from '../../http/form/read-form.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import { streamTranscription } from '../../transcription/stream-transcription.js';
import {
  completeTranscription,
  startTranscriptionRun,
  type TranscriptionServices,
  transcriptionRunCeiling,
} from '../../transcription/transcription-run.js';
import { clientGone, runContext } from '../request-context.js';
import { readJsonUpload } from './json-upload.js';
import { readUpload } from './read-upload.js';
import { toTranscriptionRequest } from './to-transcription-request.js';

/**
 * POST /audio/transcriptions: OpenAI's multipart upload, or the reference's
 * JSON with base64 `input_audio`; multipart is taken in this route's scope
 * only.
 */
export function transcriptionRoutes(
  services: TranscriptionServices & { auth: Authenticator; shutdown: Shutdown; maxBytes: number },
): FastifyPluginAsync {
  return async (app) => {
    takeMultipart(app);
    app.post('/audio/transcriptions', { onRequest: services.auth.requireKey }, async (request, reply) => {
      // Read before the hold: a slow upload costs nothing and must not delay a stop. JSON is the reference's base64 form.
      const upload =
        request.body !== undefined && !isMultipart(request)
          ? readJsonUpload(request.body, services.maxBytes)
          : await readUpload(request, reply, services.maxBytes);
      const transcriptionRequest = toTranscriptionRequest(upload.fields, upload.file);
      const signal = clientGone(reply, services.shutdown.signal);
      // Held until its ledger row is written: a stop closes the database only after.
      const served = await services.shutdown.hold(async () => {
        const key = callerKey(request);
        const started = startTranscriptionRun(services, key, transcriptionRequest, runContext(request));
        // Admission: the run holds the most its audio can cost until settleRun charges it, or is released here.
        const reservation = await services.spend.reserve(key, () => transcriptionRunCeiling(started), { id: started.id });
        const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
        try {
          const prepared = await services.pipeline.prepareTranscription(run, signal);
          // Events once the first one came; a provider that answers whole (whisper-1) is answered whole.
          const answer = prepared.request.stream
            ? await streamTranscription(services, prepared, signal, () => {
                reply.hijack();
                return new SseWriter(reply.raw, { 'x-request-id': request.id, 'x-generation-id': run.id });
              })
            : await completeTranscription(services, prepared, signal);
          if (answer) void reply.header('x-generation-id', run.id);
          return answer;
        } catch (error) {
          throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
        } finally {
          void reservation.release();
        }
      });
      // Undefined when the answer was streamed: the response is written already.
      return served ? reply.type(served.contentType).send(served.body) : reply;
    });
  };
}

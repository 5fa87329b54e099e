import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { modelTask } from '../../catalog/model-task.js';
import { completeEmbeddings } from '../../embeddings/complete-embeddings.js';
import { type EmbeddingsServices, embeddingsRunCeiling, startEmbeddingsRun } from '../../embeddings/embeddings-run.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { toModelRecord } from '../models/model-record.js';
import { modelsPage } from '../models/routes.js';
import { ListModelsQuery } from '../models/schemas.js';
import { clientGone, runContext } from '../request-context.js';
import { EmbeddingsRequestBody } from './schemas.js';
import { toEmbeddingsRequest } from './to-embeddings-request.js';

export function embeddingsRoutes(services: EmbeddingsServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Held until its ledger row is written: a stop closes the database only after.
    app.post('/embeddings', { onRequest: services.auth.requireKey, schema: { body: EmbeddingsRequestBody } }, async (request, reply) =>
      services.shutdown.hold(async () => {
        const key = callerKey(request);
        const signal = clientGone(reply, services.shutdown.signal);
        const started = startEmbeddingsRun(services, key, toEmbeddingsRequest(request.body), runContext(request));
        // Admission: the run holds the most it can cost until settleRun charges it, or is released here.
        const reservation = await services.spend.reserve(key, () => embeddingsRunCeiling(started), { id: started.id });
        const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
        try {
          return await completeEmbeddings(
            services,
            await services.pipeline.prepareEmbeddings(run, signal),
            request.body.encoding_format ?? 'float',
            signal,
          );
        } catch (error) {
          throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
        } finally {
          void reservation.release();
        }
      }),
    );

    // The catalog is fixed for the life of the process: build the listing once.
    const modelsPath = `${app.prefix}/models`;
    const listing = services.catalog
      .listModels()
      .filter((model) => modelTask(model) === 'embeddings')
      .map((model) => toModelRecord(model, modelsPath));
    app.get('/embeddings/models', { onRequest: services.auth.requireKey, schema: { querystring: ListModelsQuery } }, async (request) =>
      modelsPage(listing, request.query, `${app.prefix}/embeddings/models`),
    );
  };
}

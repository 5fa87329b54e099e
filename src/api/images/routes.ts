import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { modelTask } from '../../catalog/model-task.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { completeImages, type ServedImages } from '../../images/complete-images.js';
import { type ImagesServices, imagesRunCeiling, startImagesRun } from '../../images/images-run.js';
import { mediaTypeOf } from '../../images/media-type.js';
import type { ImageRequest } from '../../protocol/images.js';
import { ModelEndpointsParams } from '../models/schemas.js';
import { clientGone, runContext } from '../request-context.js';
import { imageModelEndpoints, imageModelRecord } from './image-model-record.js';
import { ImageGenerationsRequestBody, ImagesRequestBody } from './schemas.js';
import { fromGenerationsBody, fromImagesBody } from './to-image-request.js';

type Services = ImagesServices & { auth: Authenticator; shutdown: Shutdown };

const unixSeconds = (ms: number) => Math.floor(ms / 1000);

/** The reference's answer: base64 bytes with their media type, and the cost. */
function referenceAnswer(served: ServedImages, startedAt: number) {
  const { upstream } = served;
  return {
    id: served.id,
    created: upstream.created ?? unixSeconds(startedAt),
    model: served.model,
    provider: served.provider,
    data: upstream.images.map(({ b64_json }) => {
      const mediaType = mediaTypeOf(b64_json!);
      return { b64_json: b64_json!, ...(mediaType ? { media_type: mediaType } : {}) };
    }),
    usage: tokenUsage(served),
    ...(served.service_metadata ? { service_metadata: served.service_metadata } : {}),
  };
}

/** OpenAI's answer: base64 bytes or URLs as asked, the revised prompt DALL·E 3 gives, the provider's token usage and the cost. */
function openAIAnswer(served: ServedImages, startedAt: number) {
  const { upstream } = served;
  return {
    id: served.id,
    created: upstream.created ?? unixSeconds(startedAt),
    model: served.model,
    provider: served.provider,
    data: upstream.images,
    ...(upstream.outputFormat ? { output_format: upstream.outputFormat } : {}),
    usage: {
      input_tokens: upstream.usage?.input_tokens ?? 0,
      output_tokens: upstream.usage?.output_tokens ?? 0,
      total_tokens: (upstream.usage?.input_tokens ?? 0) + (upstream.usage?.output_tokens ?? 0),
      cost: served.cost,
    },
    ...(served.service_metadata ? { service_metadata: served.service_metadata } : {}),
  };
}

/** The reference's ImageGenerationUsage: the provider's tokens (as prompt and completion) and the cost. */
function tokenUsage({ upstream, cost }: ServedImages) {
  const prompt = upstream.usage?.input_tokens ?? 0;
  const completion = upstream.usage?.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, cost };
}

export function imagesRoutes(services: Services): FastifyPluginAsyncTypebox {
  /** Reserve, serve and settle one image request (the two routes differ only in their body and answer). */
  const generate = <T>(
    request: FastifyRequest,
    reply: Parameters<typeof clientGone>[0],
    body: ImageRequest,
    answer: (served: ServedImages, startedAt: number) => T,
  ) =>
    services.shutdown.hold(async () => {
      const key = callerKey(request);
      const signal = clientGone(reply, services.shutdown.signal);
      const started = startImagesRun(services, key, body, runContext(request));
      // Admission: the run holds the most it can cost (n images) until settleRun charges it, or is released here.
      const reservation = await services.spend.reserve(key, () => imagesRunCeiling(started), { id: started.id });
      const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
      try {
        return answer(await completeImages(services, await services.pipeline.prepareImages(run, signal), signal), run.startedAt);
      } catch (error) {
        throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
      } finally {
        void reservation.release();
      }
    });

  return async (app) => {
    // Held until its ledger row is written: a stop closes the database only after.
    app.post('/images', { onRequest: services.auth.requireKey, schema: { body: ImagesRequestBody } }, async (request, reply) =>
      generate(request, reply, fromImagesBody(request.body), referenceAnswer),
    );
    app.post(
      '/images/generations',
      { onRequest: services.auth.requireKey, schema: { body: ImageGenerationsRequestBody } },
      async (request, reply) => generate(request, reply, fromGenerationsBody(request.body), openAIAnswer),
    );

    // The catalog is fixed for the life of the process: build the listing once.
    const models = services.catalog.listModels().filter((model) => modelTask(model) === 'image');
    const listing = models.map((model) => imageModelRecord(model, services.catalog, services.adapters, `${app.prefix}/images/models`));
    app.get('/images/models', { onRequest: services.auth.requireKey }, async () => ({ data: listing }));
    app.get(
      '/images/models/:author/:slug/endpoints',
      { onRequest: services.auth.requireKey, schema: { params: ModelEndpointsParams } },
      async (request) => {
        const model = models.find((m) => m.id === `${request.params.author}/${request.params.slug}`);
        if (!model) throw Errors.notFound('Model');
        return imageModelEndpoints(model, services.catalog, services.adapters);
      },
    );
  };
}

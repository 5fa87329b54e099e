import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { modelTask } from '../../catalog/model-task.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { writeStreamRefusal } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { takeMultipart } from '../../http/form/read-form.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import { SseWriter } from '../../http/sse-writer.js';
import { completeImages, type ServedImages } from '../../images/complete-images.js';
import { type ImageStreamFormat, openAIImageStream, REFERENCE_IMAGE_STREAM } from '../../images/image-stream-format.js';
import { imagesRunCeiling, startImagesRun } from '../../images/images-run.js';
import { mediaTypeOf } from '../../images/media-type.js';
import { readInputReferences } from '../../images/read-input-references.js';
import { type ImagesStreamServices, streamImages, streamsNatively } from '../../images/stream-images.js';
import type { SafeFetcher } from '../../net/safe-fetch.js';
import type { InputImage } from '../../protocol/images.js';
import type { WorkspaceCache } from '../../workspaces/workspace-cache.js';
import { ModelEndpointsParams } from '../models/schemas.js';
import { clientGone, runContext } from '../request-context.js';
import { imageModelEndpoints, imageModelRecord } from './image-model-record.js';
import { readEditUpload } from './read-edit-upload.js';
import { ImageGenerationsRequestBody, ImagesRequestBody } from './schemas.js';
import { fromEditFields, fromGenerationsBody, fromImagesBody, type ImageDraft, wantsStream } from './to-image-request.js';

/** `fetcher` fetches the reference images given by URL (SSRF-safe, the plugins' own). */
type Services = ImagesStreamServices & { auth: Authenticator; shutdown: Shutdown; fetcher: SafeFetcher; workspaces: WorkspaceCache };

const GENERATIONS_STREAM = openAIImageStream('image_generation');
const EDITS_STREAM = openAIImageStream('image_edit');

/** Stands for a reference image while the request is planned and held: only their count matters until they are fetched. */
const PENDING_IMAGE: InputImage = { bytes: Buffer.alloc(0), filename: 'pending', contentType: 'image/png' };

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
  /**
   * Reserve, serve and settle one image request (the routes differ only in
   * their body and their answer). `fetchImages` fetches the reference images
   * of `/images`, whose count `draft.images` gives in placeholders: planned and
   * held first, so that an unknown model, a plan without an editing endpoint
   * or a 402 is answered before anything is fetched. `stream` (the format its events take) streams it when an
   * endpoint of the plan can; else it is answered whole. A draft without a model takes its key's workspace's default image model.
   */
  const generate = <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    draft: ImageDraft,
    fetchImages: ((signal: AbortSignal) => Promise<InputImage[]>) | undefined,
    answer: (served: ServedImages, startedAt: number) => T,
    stream: ImageStreamFormat | undefined,
  ) =>
    services.shutdown.hold(async () => {
      const key = callerKey(request);
      const model = draft.model ?? (await services.workspaces.get(key.workspace_id)).imageModel;
      if (model === null) throw Errors.invalidRequest("model is required: this key's workspace has no default_image_model");
      const signal = clientGone(reply, services.shutdown.signal);
      const started = startImagesRun(services, key, { ...draft, model }, runContext(request));
      // Admission: the run holds the most it can cost (n images, its input images' tokens) until settleRun charges it, or is released here.
      const reservation = await services.spend.reserve(key, () => imagesRunCeiling(started), { id: started.id });
      const held = reservation === NO_RESERVATION ? started : { ...started, reservation };
      try {
        const run = fetchImages ? { ...held, request: { ...held.request, images: await fetchImages(signal) } } : held;
        const prepared = await services.pipeline.prepareImages(run, signal);
        if (!stream || !streamsNatively(services, prepared)) return answer(await completeImages(services, prepared, signal), run.startedAt);
        reply.hijack();
        // The events carry no id (the reference's have none): the generation's id is a header, as speech's is.
        const sse = new SseWriter(reply.raw, { 'x-request-id': request.id, 'x-generation-id': run.id });
        await streamImages(services, prepared, sse, signal, (error) => writeStreamRefusal(reply, error), stream);
        return undefined;
      } catch (error) {
        throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
      } finally {
        void reservation.release();
      }
    });

  return async (app) => {
    // Held until its ledger row is written: a stop closes the database only after.
    app.post('/images', { onRequest: services.auth.requireKey, schema: { body: ImagesRequestBody } }, async (request, reply) => {
      const body = fromImagesBody(request.body);
      const references = request.body.input_references ?? [];
      // Reference images make it an edit: read (fetched when given by URL) once the request is planned and held.
      const edit = references.length > 0;
      return generate(
        request,
        reply,
        edit ? { ...body, images: references.map(() => PENDING_IMAGE) } : body,
        edit ? (signal) => readInputReferences(references, services.fetcher, signal) : undefined,
        referenceAnswer,
        wantsStream(request.body, body) ? REFERENCE_IMAGE_STREAM : undefined,
      );
    });
    app.post(
      '/images/generations',
      { onRequest: services.auth.requireKey, schema: { body: ImageGenerationsRequestBody } },
      async (request, reply) => {
        const body = fromGenerationsBody(request.body);
        return generate(request, reply, body, undefined, openAIAnswer, wantsStream(request.body, body) ? GENERATIONS_STREAM : undefined);
      },
    );
    // OpenAI's multipart edit (the openai client's images.edit), read before the hold: a slow upload must not delay a stop.
    await app.register(async (edits) => {
      takeMultipart(edits);
      edits.post('/images/edits', { onRequest: services.auth.requireKey }, async (request, reply) => {
        const { fields, images, mask } = await readEditUpload(request, reply, edits.initialConfig.bodyLimit ?? 0);
        const body = fromEditFields(fields, images, mask);
        return generate(request, reply, body, undefined, openAIAnswer, wantsStream(fields, body) ? EDITS_STREAM : undefined);
      });
    });

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

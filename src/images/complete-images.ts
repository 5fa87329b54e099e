import { adapterFor } from '../chat/adapter-for.js';
import { serveRun } from '../chat/serve-run.js';
import { serviceMetadata } from '../chat/service-metadata.js';
import { settleRun } from '../chat/settle-run.js';
import type { UpstreamImages } from '../protocol/images.js';
import { UpstreamError } from '../protocol/upstream.js';
import { type ImagesRun, type ImagesServices, imagesAsked, inputImageTokensBound } from './images-run.js';

/** A served image request: what the provider made, the cost charged, and the run's ids for the answer. */
export interface ServedImages {
  id: string;
  model: string;
  provider: string;
  upstream: UpstreamImages;
  cost: number;
  service_metadata?: unknown;
}

/**
 * Checks an answer before it is billed: at least one image, no more than
 * asked, and each in the form asked for (base64 bytes or a URL). Anything
 * else is malformed, so the plan moves on.
 */
export function checkImages(upstream: UpstreamImages, run: Pick<ImagesRun, 'request'>): UpstreamImages {
  const asked = imagesAsked(run.request);
  if (upstream.images.length > asked)
    throw new UpstreamError('malformed', `upstream answered ${upstream.images.length} images, more than the ${asked} asked for`);
  const field = run.request.response_format;
  if (upstream.images.some((image) => image[field] === undefined))
    throw new UpstreamError('malformed', `upstream answered an image without ${field}`);
  return upstream;
}

/**
 * The tokens of the images sent to be edited, to bill: as the provider
 * reports them, when no more than those images can count
 * (inputImageTokensBound; more is a malformed answer, so the plan moves on),
 * or that bound, marked estimated, when it reports none for images it was sent.
 */
export function billedImageTokens(
  reported: number | undefined,
  request: ImagesRun['request'],
): { imageTokens: number; usageEstimated: boolean } {
  const bound = inputImageTokensBound(request);
  if (reported === undefined) return { imageTokens: bound, usageEstimated: bound > 0 };
  if (reported > bound)
    throw new UpstreamError(
      'malformed',
      `upstream reported ${reported} input image tokens, more than the ${bound} the images sent can count`,
    );
  return { imageTokens: reported, usageEstimated: false };
}

/**
 * An image request: try the plan as chat does (fallbacks, Retry-After,
 * health), charge the key for the images made at the serving endpoint's
 * `image` price, and hand the answer to the route, which shapes it as its
 * API does (the reference's or OpenAI's).
 */
export function completeImages(services: ImagesServices, run: ImagesRun, signal: AbortSignal): Promise<ServedImages> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt) => {
      const { adapter, target } = adapterFor(services, attempt);
      const answer = checkImages(await adapter.generate(run.request, target, { signal, endUserId: run.endUserId }), run);
      return { answer, billed: billedImageTokens(answer.usage?.input_image_tokens, run.request) };
    },
    async ({ result: { answer: result, billed }, attempt, outcomes }) => {
      const { cost } = await settleRun(services, run, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        // Billed per image: the token figures some providers report are kept nowhere but the answer.
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        images: result.images.length,
        ...billed,
      });
      return {
        id: run.id,
        model: attempt.modelId,
        provider: attempt.endpoint.provider,
        upstream: result,
        cost,
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...run.routing, attempts: outcomes }) } : {}),
      };
    },
  );
}

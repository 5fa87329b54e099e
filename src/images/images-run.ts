import { computeCost } from '../accounting/compute-cost.js';
import type { CostCeiling } from '../accounting/reservation-ceiling.js';
import type { Run, RunContext } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import { narrowPlan, startRun } from '../chat/start-run.js';
import { Errors } from '../http/errors.js';
import type { ImagesAdapter } from '../protocol/adapters.js';
import type { ImageRequest } from '../protocol/images.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';

/** What the images flow needs beyond the request; built once in app.ts. */
export interface ImagesServices extends RunServices {
  adapters: Readonly<Record<string, ImagesAdapter>>;
}

export type ImagesRun = Run<ImageRequest>;

/**
 * Plans an image request: the model's endpoints as chat plans them. A model
 * of another type is a 400 naming its endpoint. A request with images to
 * edit keeps only the endpoints whose protocol edits; a model with none is a 400.
 */
export function startImagesRun(services: ImagesServices, key: ApiKeyRow, request: ImageRequest, context: RunContext): ImagesRun {
  const run = startRun(services, key, request, context, { task: 'image', requested: [request.model] });
  if (!request.images?.length) return run;
  const attempts = run.attempts.filter((attempt) => {
    const kind = services.catalog.providers.get(attempt.endpoint.provider)?.kind;
    return kind !== undefined && services.adapters[kind]?.edits === true;
  });
  if (attempts.length === 0)
    throw Errors.invalidRequest(
      `input_references: no endpoint of ${request.model} left to this request edits images (OpenAI's protocol does); send the prompt alone`,
    );
  return narrowPlan(run, attempts);
}

/**
 * The most image tokens OpenAI counts for one image sent to be edited: its
 * 512-pixel tiles (65 + 129 a tile, at most 6) and, at high input fidelity,
 * up to 6,240 more. What a provider reports above it is not billed as such.
 */
export const MAX_INPUT_IMAGE_TOKENS = 7_100;

/** The most input image tokens a request can be billed for: MAX_INPUT_IMAGE_TOKENS for each image it sends. */
export const inputImageTokensBound = (request: Pick<ImageRequest, 'images' | 'mask'>): number =>
  ((request.images?.length ?? 0) + (request.mask ? 1 : 0)) * MAX_INPUT_IMAGE_TOKENS;

/** The images a request asks for: `n`, else one. */
export const imagesAsked = (request: Pick<ImageRequest, 'n'>): number => request.n ?? 1;

/**
 * The most an image request can cost: the images asked for at the dearest
 * endpoint's `image` price, the images it sends to be edited at the most
 * tokens they can count (inputImageTokensBound) at its `image_token` price,
 * plus its `request` price.
 */
export function imagesRunCeiling(run: ImagesRun): CostCeiling {
  const at = new Date(run.startedAt);
  const units = { images: imagesAsked(run.request), imageTokens: inputImageTokensBound(run.request) };
  return { usd: Math.max(0, ...run.attempts.map((a) => computeCost(a.endpoint.pricing, undefined, at, 1, units).total)) };
}

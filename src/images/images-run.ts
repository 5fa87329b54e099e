import { computeCost } from '../accounting/compute-cost.js';
import type { CostCeiling } from '../accounting/reservation-ceiling.js';
import type { Run, RunContext } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import { startRun } from '../chat/start-run.js';
import type { ImagesAdapter } from '../protocol/adapters.js';
import type { ImageRequest } from '../protocol/images.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';

/** What the images flow needs beyond the request; built once in app.ts. */
export interface ImagesServices extends RunServices {
  adapters: Readonly<Record<string, ImagesAdapter>>;
}

export type ImagesRun = Run<ImageRequest>;

/** Plans an image request: the model's endpoints as chat plans them. A model of another type is a 400 naming its endpoint. */
export function startImagesRun(services: ImagesServices, key: ApiKeyRow, request: ImageRequest, context: RunContext): ImagesRun {
  return startRun(services, key, request, context, { task: 'image', requested: [request.model] });
}

/** The images a request asks for: `n`, else one. */
export const imagesAsked = (request: Pick<ImageRequest, 'n'>): number => request.n ?? 1;

/** The most an image request can cost: the images asked for at the dearest endpoint's `image` price, plus its `request` price. */
export function imagesRunCeiling(run: ImagesRun): CostCeiling {
  const at = new Date(run.startedAt);
  const images = imagesAsked(run.request);
  return { usd: Math.max(0, ...run.attempts.map((a) => computeCost(a.endpoint.pricing, undefined, at, 1, { images }).total)) };
}

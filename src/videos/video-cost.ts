import type { Pricing } from '../catalog/types.js';

/**
 * USD for a finished video: the endpoint's `video_second` price (USD per
 * second of generated video, the catalog key chosen for video models) times
 * the seconds made, less the endpoint's discount.
 */
export function videoCost(pricing: Pricing, seconds: number): number {
  return seconds * (pricing.video_second ?? 0) * (1 - (pricing.discount ?? 0));
}

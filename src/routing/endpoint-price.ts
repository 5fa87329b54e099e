import type { Pricing } from '../catalog/types.js';

/**
 * One price per endpoint for ranking and load balancing: prompt plus
 * completion per token (per second of video for video models, whose token
 * prices are 0), after the endpoint's discount. Conditional prices are left
 * out: they depend on the request, the ranking should not.
 */
export const rankingPrice = (pricing: Pricing) =>
  (pricing.prompt + pricing.completion + (pricing.video_second ?? 0)) * (1 - (pricing.discount ?? 0));

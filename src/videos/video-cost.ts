import type { Pricing } from '../catalog/types.js';

/** What a video's price can depend on besides its length: the size or resolution asked for. */
export interface VideoShape {
  size?: string | undefined;
  resolution?: string | undefined;
}

/**
 * USD for a finished video: the seconds made times the endpoint's price per
 * second for the video's size (or, without one, its resolution) when `video_second_by_size`
 * names it, else `video_second`, less the endpoint's discount: a finite
 * amount ≥ 0 whatever it is given.
 */
export function videoCost(pricing: Pricing, seconds: number, shape: VideoShape = {}): number {
  // A size says exactly what is made; a resolution stands for it only when no size is given.
  const made = shape.size ?? shape.resolution;
  const perSecond = (made !== undefined ? pricing.video_second_by_size?.[made] : undefined) ?? pricing.video_second ?? 0;
  const cost = seconds * perSecond * (1 - (pricing.discount ?? 0));
  return Number.isFinite(cost) && cost > 0 ? cost : 0;
}

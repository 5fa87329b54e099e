import type { Endpoint, Model } from '../../catalog/types.js';
import type { VideoOptions } from '../../protocol/adapters.js';

/** The sizes and resolutions priced apart, as `video_second_<size>` SKUs. */
const pricesBySize = (endpoint: Endpoint) =>
  Object.fromEntries(
    Object.entries(endpoint.pricing.video_second_by_size ?? {}).map(([size, usd]) => [`video_second_${size}`, String(usd)]),
  );

/** A video model as the reference's VideoModel: what its top endpoint's protocol can make there, and the price per second. */
export function toVideoModelRecord(model: Model, endpoint: Endpoint, options: VideoOptions) {
  const price = endpoint.pricing.video_second;
  return {
    id: model.id,
    canonical_slug: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    supported_resolutions: options.resolutions,
    supported_aspect_ratios: options.aspectRatios,
    supported_sizes: options.sizes,
    supported_durations: options.durations,
    supported_frame_images: options.frameImages,
    upscale_factor: null,
    creativity: null,
    generate_audio: options.generateAudio,
    seed: options.seed,
    allowed_passthrough_parameters: options.passthrough,
    pricing_skus: price !== undefined ? { video_second: String(price), ...pricesBySize(endpoint) } : null,
  };
}

import { frameImage, referenceImages, type UpstreamVideoRequest, type VideoRequest } from '../../protocol/video-request.js';
import { parseDataUrl } from '../shared/parse-data-url.js';

/** Veo's image: base64 bytes and their type (it takes neither links nor Gemini's inlineData). */
export interface VeoImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg'];

/** The Veo image of a data URL of a PNG or JPEG; undefined for anything else. */
export function veoImage(url: string): VeoImage | undefined {
  const data = parseDataUrl(url);
  return data && IMAGE_TYPES.includes(data.mediaType) ? { bytesBase64Encoded: data.data, mimeType: data.mediaType } : undefined;
}

/** `size` as Veo's resolution and aspect ratio. */
const SIZES: Record<string, { resolution: string; aspectRatio: string }> = {
  '1280x720': { resolution: '720p', aspectRatio: '16:9' },
  '720x1280': { resolution: '720p', aspectRatio: '9:16' },
  '1920x1080': { resolution: '1080p', aspectRatio: '16:9' },
  '1080x1920': { resolution: '1080p', aspectRatio: '9:16' },
};

const INLINE_ONLY = 'Veo on the Gemini API takes images inline: send a data URL of a PNG or JPEG (data:image/png;base64,…), not a link';

/**
 * Why Veo cannot take a request that its options allow, for a 400: images
 * must be inline PNG or JPEG, a last frame needs a first, reference images
 * go without frame images, and 1080p is made at 8 seconds only.
 */
export function veoRefusal(request: VideoRequest, upstreamModel: string): string | undefined {
  for (const [i, frame] of (request.frame_images ?? []).entries()) {
    if (!veoImage(frame.image_url.url)) return `frame_images[${i}].image_url.url: ${INLINE_ONLY}`;
  }
  for (const [i, reference] of (request.input_references ?? []).entries()) {
    if (reference.type === 'image_url' && !veoImage(reference.image_url.url)) return `input_references[${i}].image_url.url: ${INLINE_ONLY}`;
  }
  if (frameImage(request, 'last_frame') !== undefined && frameImage(request, 'first_frame') === undefined) {
    return 'frame_images: Veo takes a last_frame only with a first_frame';
  }
  if (referenceImages(request).length > 0 && request.frame_images?.length)
    return 'input_references: Veo takes reference images or frame images, not both';
  const resolution = request.size ? SIZES[request.size]?.resolution : request.resolution;
  if (resolution === '1080p' && request.duration !== undefined && request.duration !== 8 && !upstreamModel.startsWith('veo-2')) {
    return `duration: Veo makes 1080p videos of 8 seconds only, not ${request.duration}`;
  }
  return undefined;
}

/**
 * The body of `models/{model}:predictLongRunning`: one instance (prompt,
 * first frame as `image`, `lastFrame`, `referenceImages` as assets) and the
 * parameters, with the provider-specific options Veo takes. `size` stands
 * for resolution and aspect ratio. Images were checked by veoRefusal.
 */
export function toVeoRequest(request: UpstreamVideoRequest): { instances: Record<string, unknown>[]; parameters: Record<string, unknown> } {
  const image = (url: string) => veoImage(url)!;
  const first = frameImage(request, 'first_frame');
  const last = frameImage(request, 'last_frame');
  const references = referenceImages(request);
  const fromSize = request.size ? SIZES[request.size] : undefined;
  const resolution = fromSize?.resolution ?? request.resolution;
  const aspectRatio = fromSize?.aspectRatio ?? request.aspect_ratio;
  return {
    instances: [
      {
        ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
        ...(first !== undefined ? { image: image(first) } : {}),
        ...(last !== undefined ? { lastFrame: image(last) } : {}),
        ...(references.length ? { referenceImages: references.map((url) => ({ image: image(url), referenceType: 'asset' })) } : {}),
      },
    ],
    parameters: {
      ...request.passthrough,
      ...(aspectRatio !== undefined ? { aspectRatio } : {}),
      ...(resolution !== undefined ? { resolution } : {}),
      ...(request.duration !== undefined ? { durationSeconds: request.duration } : {}),
    },
  };
}

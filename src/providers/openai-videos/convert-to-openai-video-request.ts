import type { VideoRequest } from '../../videos/video-request.js';

/** Pixel sizes of the reference's resolution and aspect ratio pairs that OpenAI's `size` takes. */
const SIZES: Record<string, Record<string, string>> = {
  '720p': { '16:9': '1280x720', '9:16': '720x1280' },
  '1080p': { '16:9': '1792x1024', '9:16': '1024x1792' },
};

/**
 * The JSON body of OpenAI's `POST /videos`: `seconds` is a string there, and
 * `size` is WIDTHxHEIGHT, taken as given or from resolution and aspect ratio
 * (16:9 when only a resolution is given). Image references are not sent yet.
 */
export function toOpenAIVideoRequest(request: VideoRequest, upstreamModel: string): Record<string, unknown> {
  const size = request.size ?? (request.resolution ? SIZES[request.resolution]?.[request.aspect_ratio ?? '16:9'] : undefined);
  return {
    model: upstreamModel,
    prompt: request.prompt ?? '',
    ...(request.duration !== undefined ? { seconds: String(request.duration) } : {}),
    ...(size !== undefined ? { size } : {}),
  };
}

import { frameImage, type UpstreamVideoRequest } from '../../protocol/video-request.js';

/** Pixel sizes of the reference's resolution and aspect ratio pairs that OpenAI's `size` takes. */
const SIZES: Record<string, Record<string, string>> = {
  '720p': { '16:9': '1280x720', '9:16': '720x1280' },
  '1080p': { '16:9': '1792x1024', '9:16': '1024x1792' },
};

/**
 * The JSON body of OpenAI's `POST /videos`: `seconds` is a string there, and
 * `size` is WIDTHxHEIGHT, taken as given or from resolution and aspect ratio
 * (16:9 when only a resolution is given). The first frame image goes as
 * `input_reference` (an image URL or data URL), which OpenAI uses as the
 * video's first frame.
 */
export function toOpenAIVideoRequest(request: UpstreamVideoRequest, upstreamModel: string): Record<string, unknown> {
  const size = request.size ?? (request.resolution ? SIZES[request.resolution]?.[request.aspect_ratio ?? '16:9'] : undefined);
  const firstFrame = frameImage(request, 'first_frame');
  return {
    model: upstreamModel,
    prompt: request.prompt ?? '',
    ...(request.duration !== undefined ? { seconds: String(request.duration) } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(firstFrame !== undefined ? { input_reference: { image_url: firstFrame } } : {}),
  };
}

import type { ImageRequest } from '../../protocol/images.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { upstreamEndUser } from '../shared/hash-end-user.js';

/** The sizes of OpenAI's image models for the reference's aspect ratios: square, landscape, portrait. */
function sizeFor(aspectRatio: string | undefined): string | undefined {
  if (aspectRatio === undefined) return undefined;
  if (aspectRatio === 'auto') return 'auto';
  const [width, height] = aspectRatio.split(':').map(Number);
  if (!width || !height || width === height) return '1024x1024';
  return width > height ? '1536x1024' : '1024x1536';
}

/** DALL·E answers URLs unless asked for base64; the GPT image models always answer base64 and refuse `response_format`. */
const isDallE = (model: string) => model.startsWith('dall-e');

/**
 * OpenAI's POST /images/generations body: the prompt, n, the size (asked, or
 * the aspect ratio's nearest: OpenAI's models clamp to three), quality,
 * background, output format and compression, style, and the end user as the
 * gateway's keyed hash. `response_format` goes only to the models that take it;
 * `stream` and `partial_images` only to a request streamed.
 */
export function convertToOpenAIImagesRequest(
  request: ImageRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
  endUserId?: string,
  stream = false,
): Record<string, unknown> {
  const size = request.size ?? sizeFor(request.aspect_ratio);
  const user = upstreamEndUser(request, endUserId);
  const dallE = isDallE(target.upstreamModel);
  const optional: Record<string, unknown> = {
    n: request.n,
    size,
    quality: request.quality,
    background: request.background,
    output_format: request.output_format,
    output_compression: request.output_compression,
    style: request.style,
    response_format: dallE ? request.response_format : undefined,
    user,
    ...(stream ? { stream: true, partial_images: request.partial_images } : {}),
  };
  return {
    model: target.upstreamModel,
    prompt: request.prompt,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

import type { GeneratedImage, ImageTokenUsage, UpstreamImages } from '../../protocol/images.js';
import { isRecord } from '../../util/is-record.js';
import { readCount } from '../shared/read-rerank-scores.js';

/** One item of `data`: its base64 bytes or its URL (at least one), and DALL·E 3's revised prompt. */
function readImage(item: unknown): GeneratedImage | undefined {
  if (!isRecord(item)) return undefined;
  const image: GeneratedImage = {};
  if (typeof item.b64_json === 'string' && item.b64_json !== '') image.b64_json = item.b64_json;
  if (typeof item.url === 'string' && item.url !== '') image.url = item.url;
  if (typeof item.revised_prompt === 'string') image.revised_prompt = item.revised_prompt;
  return image.b64_json !== undefined || image.url !== undefined ? image : undefined;
}

/** The token counts of an OpenAI images usage object that are counts; undefined when there is no usage object. */
export function readImageUsage(usage: unknown): ImageTokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const details = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const counts = {
    input_tokens: readCount(usage.input_tokens),
    input_image_tokens: readCount(details.image_tokens),
    output_tokens: readCount(usage.output_tokens),
  };
  return Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== undefined));
}

/** The images of an OpenAI images answer, its format and token usage; undefined when it holds no image. */
export function convertOpenAIImagesResponse(body: unknown): UpstreamImages | undefined {
  if (!isRecord(body) || !Array.isArray(body.data) || body.data.length === 0) return undefined;
  const images: GeneratedImage[] = [];
  for (const item of body.data) {
    const image = readImage(item);
    if (!image) return undefined;
    images.push(image);
  }
  const usage = readImageUsage(body.usage);
  return {
    ...(typeof body.created === 'number' && Number.isSafeInteger(body.created) ? { created: body.created } : {}),
    images,
    ...(typeof body.output_format === 'string' ? { outputFormat: body.output_format } : {}),
    ...(usage ? { usage } : {}),
  };
}

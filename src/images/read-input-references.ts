import { Errors } from '../http/errors.js';
import { SafeFetchError, type SafeFetcher } from '../net/safe-fetch.js';
import type { InputImage } from '../protocol/images.js';
import { parseDataUrl } from '../providers/shared/parse-data-url.js';
import { mediaTypeOf } from './media-type.js';

/** How many images one request may send, how large each, and how long fetching one may take (OpenAI's edits take 16 of up to 50 MB). */
export const INPUT_IMAGE_LIMITS = { images: 16, maxBytes: 20 * 1024 * 1024, timeoutMs: 30_000 } as const;
/** The formats the edit APIs take. */
const FORMATS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** A reference image as the reference's ContentPartImage gives it. */
export interface ImageReference {
  type: 'image_url';
  image_url: { url: string };
}

const tooLarge = (field: string) =>
  Errors.uploadTooLarge(`${field} is larger than the ${INPUT_IMAGE_LIMITS.maxBytes}-byte limit of an input image`);

/** The bytes as an input image, its format read from its first bytes; another format is a 400 naming the field. */
export function inputImage(bytes: Buffer, field: string, index: number): InputImage {
  if (bytes.length > INPUT_IMAGE_LIMITS.maxBytes) throw tooLarge(field);
  const contentType = mediaTypeOf(bytes.subarray(0, 256).toString('base64'));
  const extension = contentType && FORMATS[contentType];
  if (!contentType || !extension) throw Errors.invalidRequest(`${field}: an input image must be a PNG, JPEG or WebP`);
  return { bytes, filename: `image-${index}.${extension}`, contentType };
}

/** An http(s) reference fetched through the SSRF-safe fetcher: private addresses, oversize bodies and failures are the client's 400/413. */
async function fetchImage(url: string, field: string, fetcher: SafeFetcher, signal: AbortSignal): Promise<Buffer> {
  try {
    const response = await fetcher.fetch(url, { maxBytes: INPUT_IMAGE_LIMITS.maxBytes, timeoutMs: INPUT_IMAGE_LIMITS.timeoutMs, signal });
    if (response.truncated) throw tooLarge(field);
    if (response.status !== 200) throw Errors.invalidRequest(`${field}: ${url} answered ${response.status}`);
    return response.body;
  } catch (error) {
    if (error instanceof SafeFetchError) throw Errors.invalidRequest(`${field}: ${url} could not be fetched (${error.message})`);
    throw error;
  }
}

/**
 * The reference images of POST /images as input images: base64 data URLs
 * decoded, http(s) URLs fetched (never from the gateway's own network), each
 * at most INPUT_IMAGE_LIMITS.maxBytes (a 413 past it) and a PNG, JPEG or
 * WebP (a 400 naming the item otherwise).
 */
export async function readInputReferences(
  references: readonly ImageReference[],
  fetcher: SafeFetcher,
  signal: AbortSignal,
): Promise<InputImage[]> {
  return Promise.all(
    references.map(async (reference, index) => {
      const field = `input_references[${index}].image_url.url`;
      const { url } = reference.image_url;
      const data = parseDataUrl(url);
      if (data) {
        // The base64 text is a third larger than its bytes: refused before it is decoded.
        if ((data.data.length * 3) / 4 > INPUT_IMAGE_LIMITS.maxBytes + 2) throw tooLarge(field);
        return inputImage(Buffer.from(data.data, 'base64'), field, index);
      }
      if (!/^https?:\/\//i.test(url)) throw Errors.invalidRequest(`${field}: must be a base64 data URL or an http(s) URL`);
      return inputImage(await fetchImage(url, field, fetcher, signal), field, index);
    }),
  );
}

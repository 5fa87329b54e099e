import type { ImageRequest, InputImage } from '../../protocol/images.js';
import type { ImageEditFields, ImageGenerationsRequestBody, ImagesRequestBody } from './schemas.js';

/** An image request as sent: its model may be left to the key's workspace (the route fills it in). */
export type ImageDraft = Omit<ImageRequest, 'model'> & { model?: string };

/** The fields both routes share, picked so that tolerated extras never reach the flow. */
function shared(body: ImagesRequestBody | ImageGenerationsRequestBody | ImageEditFields): Omit<ImageDraft, 'response_format'> {
  const { model, prompt, n, size, quality, background, output_format, output_compression, provider, user, partial_images } = body;
  const optional = { model, n, size, quality, background, output_format, output_compression, provider, user, partial_images };
  return { prompt, ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)) };
}

/** POST /images: the reference's request, answered with base64 bytes (its reference images are read apart: readInputReferences). */
export function fromImagesBody(body: ImagesRequestBody): ImageDraft {
  // A tier size ("2K") is the reference's resolution, which OpenAI's models have no knob for.
  const size = body.size !== undefined && /^\d+x\d+$|^auto$/.test(body.size) ? body.size : undefined;
  const { size: _tier, ...rest } = shared(body);
  return {
    ...rest,
    ...(size !== undefined ? { size } : {}),
    ...(body.aspect_ratio !== undefined ? { aspect_ratio: body.aspect_ratio } : {}),
    response_format: 'b64_json',
  };
}

/** POST /images/generations: OpenAI's request, answered in base64 unless it asks for URLs (which only providers that host their images, DALL·E, can give). */
export function fromGenerationsBody(body: ImageGenerationsRequestBody): ImageDraft {
  return {
    ...shared(body),
    ...(body.style !== undefined ? { style: body.style } : {}),
    response_format: body.response_format ?? 'b64_json',
  };
}

/** Whether a request is to be streamed: asked, and in base64 (no provider streams URLs). */
export const wantsStream = (body: { stream?: boolean | undefined }, request: ImageDraft): boolean =>
  body.stream === true && request.response_format === 'b64_json';

/** POST /images/edits: OpenAI's form fields with the images to edit and the mask, answered in base64 unless it asks for URLs. */
export function fromEditFields(fields: ImageEditFields, images: InputImage[], mask?: InputImage): ImageDraft {
  return {
    ...shared(fields),
    ...(fields.input_fidelity !== undefined ? { input_fidelity: fields.input_fidelity } : {}),
    response_format: fields.response_format ?? 'b64_json',
    images,
    ...(mask ? { mask } : {}),
  };
}

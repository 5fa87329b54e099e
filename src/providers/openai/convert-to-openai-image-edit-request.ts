import type { ImageRequest, InputImage } from '../../protocol/images.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { convertToOpenAIImagesRequest } from './convert-to-openai-images-request.js';

const blob = (image: InputImage) => new Blob([new Uint8Array(image.bytes)], { type: image.contentType });

/**
 * OpenAI's multipart POST /images/edits body: generations' fields (as
 * text, the way OpenAI reads form fields), the images to edit (`image`, or
 * `image[]` for several, as the official clients send them), the mask and
 * `input_fidelity`.
 */
export function convertToOpenAIImageEditRequest(
  request: ImageRequest & { images: InputImage[] },
  target: Pick<UpstreamTarget, 'upstreamModel'>,
  endUserId?: string,
  stream = false,
): FormData {
  const form = new FormData();
  const { style: _noStyle, ...fields } = convertToOpenAIImagesRequest(request, target, endUserId, stream);
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  const field = request.images.length > 1 ? 'image[]' : 'image';
  for (const image of request.images) form.append(field, blob(image), image.filename);
  if (request.mask) form.append('mask', blob(request.mask), request.mask.filename);
  if (request.input_fidelity !== undefined) form.append('input_fidelity', request.input_fidelity);
  return form;
}

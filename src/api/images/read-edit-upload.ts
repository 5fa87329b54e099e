import type { FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import { checkFormFields } from '../../http/validation.js';
import { INPUT_IMAGE_LIMITS, inputImage } from '../../images/read-input-references.js';
import type { InputImage } from '../../protocol/images.js';
import { multipartFailure } from '../multipart-failure.js';
import { ImageEditFields } from './schemas.js';

/** The caps of an edit's form beyond each file's size: the images and a mask, and OpenAI's few text fields. */
const LIMITS = { files: INPUT_IMAGE_LIMITS.images + 1, fields: 32, fieldSize: 64 * 1024, parts: 64, fieldNameSize: 64 } as const;
/** The file fields OpenAI's form has: the images (one, or several as `image[]`) and the mask. */
const IMAGE_FIELDS = new Set(['image', 'image[]']);

/** The 413 of each limit of an edit's form. */
const LIMIT_ERRORS = {
  FST_REQ_FILE_TOO_LARGE: () => Errors.uploadTooLarge(`an image exceeds the ${INPUT_IMAGE_LIMITS.maxBytes}-byte limit of an input image`),
  FST_FILES_LIMIT: () => Errors.uploadTooLarge(`an edit takes at most ${INPUT_IMAGE_LIMITS.images} images and a mask`),
  FST_FIELDS_LIMIT: () => Errors.uploadTooLarge(`an edit takes at most ${LIMITS.fields} fields`),
  FST_PARTS_LIMIT: () => Errors.uploadTooLarge(`an edit takes at most ${LIMITS.parts} parts`),
};

/** A form field's text as the JSON value its schema takes: several values of one name are a 400 naming it. */
function fieldsOf(parts: ReadonlyMap<string, string[]>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, values] of parts) {
    if (values.length > 1) throw Errors.invalidRequest(`${name} must be sent once (it was sent ${values.length} times)`);
    fields[name] = values[0];
  }
  return fields;
}

/**
 * Reads POST /images/edits' multipart body as OpenAI's images.edit sends it:
 * the images (`image`, or `image[]`; at least one, at most 16, each a PNG,
 * JPEG or WebP within INPUT_IMAGE_LIMITS.maxBytes), an optional `mask`, and
 * the text fields, checked against ImageEditFields. Past a limit is a 413
 * naming it; a body that is not multipart, a missing image, a broken rule a 400.
 */
export async function readEditUpload(
  request: FastifyRequest,
): Promise<{ fields: ImageEditFields; images: InputImage[]; mask?: InputImage }> {
  if (!request.isMultipart()) throw Errors.invalidRequest('the body must be multipart/form-data, as OpenAI’s images.edit sends it');
  const texts = new Map<string, string[]>();
  const images: InputImage[] = [];
  let mask: InputImage | undefined;
  try {
    for await (const part of request.parts({ limits: { ...LIMITS, fileSize: INPUT_IMAGE_LIMITS.maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname === 'mask') mask = inputImage(await part.toBuffer(), 'mask', 0);
        else if (IMAGE_FIELDS.has(part.fieldname)) images.push(inputImage(await part.toBuffer(), `image[${images.length}]`, images.length));
        else throw Errors.invalidRequest(`${part.fieldname}: the form takes files in image, image[] and mask only`);
        continue;
      }
      if (part.valueTruncated)
        throw Errors.uploadTooLarge(`the field ${part.fieldname} exceeds the ${LIMITS.fieldSize}-byte limit of a field`);
      if (typeof part.value !== 'string') throw Errors.invalidRequest(`${part.fieldname} must be a text field`);
      texts.set(part.fieldname, [...(texts.get(part.fieldname) ?? []), part.value]);
    }
  } catch (error) {
    throw multipartFailure(error, LIMIT_ERRORS);
  }
  if (images.length === 0) throw Errors.invalidRequest('image is required: the images to edit, as file parts named "image" or "image[]"');
  const fields = checkFormFields<ImageEditFields>(ImageEditFields, fieldsOf(texts));
  return mask ? { fields, images, mask } : { fields, images };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import { isMultipart, PART_HEADER_BYTES, readForm } from '../../http/form/read-form.js';
import { checkFormFields } from '../../http/validation.js';
import { INPUT_IMAGE_LIMITS, inputImage } from '../../images/read-input-references.js';
import type { InputImage } from '../../protocol/images.js';
import { ImageEditFields } from './schemas.js';

/** The caps of an edit's form beyond its body and each file's size: the images and a mask, and OpenAI's few text fields. */
const LIMITS = { files: INPUT_IMAGE_LIMITS.images + 1, fields: 32, fieldSize: 64 * 1024, parts: 64, fieldNameSize: 64 } as const;
/** The file fields OpenAI's form has: the images (one, or several as `image[]`) and the mask. */
const IMAGE_FIELDS = new Set(['image', 'image[]']);

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
 * Reads POST /images/edits' multipart body as OpenAI's images.edit sends it
 * (readForm, which holds its limits as it streams in): the images (`image`,
 * or `image[]`; at least one, at most 16, each a PNG, JPEG or WebP within
 * INPUT_IMAGE_LIMITS.maxBytes), an optional `mask`, and the text fields,
 * checked against ImageEditFields. The whole body is within `bodyLimit`
 * (MAX_BODY_BYTES, as every other body): past it, or past another limit, a
 * 413 naming it; a body that is not multipart a 415; a missing image, a broken
 * rule a 400.
 */
export async function readEditUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  bodyLimit: number,
): Promise<{ fields: ImageEditFields; images: InputImage[]; mask?: InputImage }> {
  if (!isMultipart(request))
    throw Errors.unsupportedMediaType(
      'multipart/form-data, as OpenAI’s images.edit sends it',
      request.headers['content-type']?.slice(0, 100) ?? 'a body without a content type',
    );
  const form = await readForm(request, reply, {
    limits: {
      bodyBytes: bodyLimit,
      headerBytes: PART_HEADER_BYTES,
      parts: LIMITS.parts,
      files: LIMITS.files,
      fields: LIMITS.fields,
      fileBytes: INPUT_IMAGE_LIMITS.maxBytes,
      fieldBytes: LIMITS.fieldSize,
      fieldNameBytes: LIMITS.fieldNameSize,
    },
    refusals: {
      body: () => Errors.payloadTooLarge(bodyLimit),
      file: () => Errors.uploadTooLarge(`an image exceeds the ${INPUT_IMAGE_LIMITS.maxBytes}-byte limit of an input image`),
      files: () => Errors.uploadTooLarge(`an edit takes at most ${INPUT_IMAGE_LIMITS.images} images and a mask`),
      fields: () => Errors.uploadTooLarge(`an edit takes at most ${LIMITS.fields} fields`),
      parts: () => Errors.uploadTooLarge(`an edit takes at most ${LIMITS.parts} parts`),
    },
    refuseFile: (field) =>
      field === 'mask' || IMAGE_FIELDS.has(field)
        ? undefined
        : Errors.invalidRequest(`${field}: the form takes files in image, image[] and mask only`),
  });
  const images: InputImage[] = [];
  let mask: InputImage | undefined;
  for (const file of form.files) {
    if (file.field === 'mask') mask = inputImage(file.bytes, 'mask', 0);
    else images.push(inputImage(file.bytes, `image[${images.length}]`, images.length));
  }
  if (images.length === 0) throw Errors.invalidRequest('image is required: the images to edit, as file parts named "image" or "image[]"');
  const fields = checkFormFields<ImageEditFields>(ImageEditFields, fieldsOf(form.fields));
  return mask ? { fields, images, mask } : { fields, images };
}

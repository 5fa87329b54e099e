import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRaw } from '../audio/transcription-route.js';
import { hasBearerToken, type SimContext, signalOnClose } from '../chat-route.js';
import { pause, sendError } from '../deliver.js';
import { parseKnobs } from '../knobs.js';
import { type OpenAiError, openAiError, SimErrors } from '../openai-errors.js';
import { deliverImages, originOf, readImageRequest } from './openai-images-route.js';

/** OpenAI's caps on an edit's images: 50 MB each and 16 for the GPT image models; DALL·E 2 one square PNG under 4 MB. */
const GPT_LIMITS = { images: 16, bytes: 50 * 1024 * 1024, types: ['image/png', 'image/jpeg', 'image/webp'] };
const DALL_E_2_LIMITS = { images: 1, bytes: 4 * 1024 * 1024, types: ['image/png'] };
/** The form fields that are numbers or booleans, as OpenAI reads them from their text. */
const NUMBERS = ['n', 'partial_images', 'output_compression'];

/** A form field's text as the JSON value OpenAI reads from it: numbers and booleans where it takes them. */
function fieldValue(name: string, value: string): unknown {
  if (NUMBERS.includes(name) && /^-?\d+$/.test(value)) return Number(value);
  if (name === 'stream' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The images of an edit form (`image`, or `image[]` as the official clients send several), checked as OpenAI checks them. */
async function readImages(form: FormData, model: string): Promise<{ ok: true; count: number } | { ok: false; error: OpenAiError }> {
  const parts = [...form.getAll('image'), ...form.getAll('image[]')];
  if (parts.length === 0) return { ok: false, error: SimErrors.missingParameter('image') };
  const limits = model.startsWith('dall-e-2') ? DALL_E_2_LIMITS : GPT_LIMITS;
  if (parts.length > limits.images) return { ok: false, error: SimErrors.aboveMaximum('image', limits.images, parts.length) };
  for (const part of parts) {
    if (!(part instanceof Blob)) return { ok: false, error: SimErrors.invalidType('image', 'a file', 'a string') };
    const type = part.type.split(';')[0]!.trim();
    if (!limits.types.includes(type))
      return {
        ok: false,
        error: openAiError(
          400,
          `Invalid file 'image': unsupported mimetype ('${type}'). Supported file formats are ${limits.types.map((t) => `'${t}'`).join(', ')}.`,
          { param: 'image', code: 'unsupported_file_mimetype' },
        ),
      };
    if (part.size > limits.bytes)
      return { ok: false, error: openAiError(400, `Invalid file 'image': the file exceeds ${limits.bytes} bytes.`, { param: 'image' }) };
  }
  return { ok: true, count: parts.length };
}

/**
 * `POST /v1/images/edits`, OpenAI's image edits: a multipart form with the
 * images to edit (`image`, or `image[]`), an optional `mask`, the prompt and
 * generations' options, answered as generations are (the prompt picks the
 * colour) with SIM_INPUT_IMAGE_TOKENS image tokens for each image sent in the
 * usage, and streamed as `image_edit.*` events when asked. OpenAI's 400s for
 * a body that is not multipart, a missing image or prompt, a text where a
 * file goes, a type or size the model does not take; DALL·E 3 does no edits.
 * The model name's knobs work as elsewhere.
 */
export async function handleImageEdits(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const raw = await readRaw(req);
  if (!hasBearerToken(req.headers.authorization)) return sendError(res, SimErrors.missingApiKey());
  const contentType = req.headers['content-type'];
  if (!contentType?.toLowerCase().startsWith('multipart/form-data'))
    return sendError(res, openAiError(400, `Invalid Content-Type header (${contentType ?? 'none'}), expected multipart/form-data.`));
  let form: FormData;
  try {
    // The platform's own multipart parser (fetch's Response.formData).
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return sendError(res, openAiError(400, 'Could not parse multipart form'));
  }
  const fields = Object.fromEntries(
    [...form.entries()].filter(([, value]) => typeof value === 'string').map(([name, value]) => [name, fieldValue(name, value as string)]),
  );
  const files = [...form.entries()]
    .filter(([, value]) => value instanceof Blob)
    .map(([name, value]) => `${name}: ${(value as Blob).size} bytes`);
  context.stats.recordChatRequest({ ...fields, files }, req.headers);

  const parsed = parseKnobs(typeof fields.model === 'string' ? fields.model : undefined, req.headers);
  if (!parsed.ok) return sendError(res, SimErrors.invalidKnob(parsed.message));
  const { knobs } = parsed;
  const model = parsed.model ?? 'dall-e-2';
  if (knobs.hang) return;
  const signal = signalOnClose(res);
  await pause(knobs.latencyMs, signal);
  if (knobs.status !== undefined) return sendError(res, SimErrors.simulatedStatus(knobs.status, model), knobs.retryAfterSeconds);
  if (model.startsWith('dall-e-3')) return sendError(res, SimErrors.invalidValue('model', model, ['dall-e-2', 'gpt-image-1']));
  const images = await readImages(form, model);
  if (!images.ok) return sendError(res, images.error);
  const mask = form.get('mask');
  if (mask !== null && !(mask instanceof Blob)) return sendError(res, SimErrors.invalidType('mask', 'a file', 'a string'));
  const read = readImageRequest(fields, model, images.count);
  if (!read.ok) return sendError(res, read.error);
  return deliverImages(res, read.request, 'image_edit', { knobs, signal, origin: originOf(req) });
}

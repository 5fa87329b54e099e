import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitOpenAIRequest, type SimContext } from '../chat-route.js';
import { deliverJson, deliverStream, type SseFraming, sendError } from '../deliver.js';
import type { Knobs } from '../knobs.js';
import { type OpenAiError, SimErrors } from '../openai-errors.js';
import { promptColour, solidPng } from './sim-png.js';

/** Where the simulator hosts the images it answers by URL, as OpenAI hosts DALL·E's. */
export const SIM_IMAGE_PATH = /^\/v1\/sim-images\/([0-9a-f]{6})\.png$/;

/** The sizes each model family makes. */
const SIZES: Record<string, readonly string[]> = {
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
  gpt: ['auto', '1024x1024', '1536x1024', '1024x1536'],
};
/** GPT image models' output tokens for a 1024×1024 image, by quality (OpenAI's published table). */
const OUTPUT_TOKENS: Record<string, number> = { low: 272, medium: 1056, high: 4160, auto: 1056 };

const familyOf = (model: string) => (model.startsWith('dall-e-2') ? 'dall-e-2' : model.startsWith('dall-e-3') ? 'dall-e-3' : 'gpt');

interface SimImageRequest {
  model: string;
  prompt: string;
  n: number;
  family: string;
  size: string;
  quality: string;
  url: boolean;
  /** Streamed as server-sent events, with this many partial images before each image (GPT image models only). */
  stream?: { partialImages: number };
  /** The images sent to be edited (POST /v1/images/edits), 0 for a generation. */
  inputImages: number;
}

/** Reads a body as OpenAI's POST /v1/images/generations checks it. */
export function readImageRequest(
  body: unknown,
  model: string | undefined,
  inputImages = 0,
): { ok: true; request: SimImageRequest } | { ok: false; error: OpenAiError } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const name = model ?? 'dall-e-2';
  const family = familyOf(name);
  const { prompt, n = 1, size, quality, response_format, stream = false, partial_images = 0 } = fields;
  if (typeof prompt !== 'string' || prompt === '') return { ok: false, error: SimErrors.missingParameter('prompt') };
  if (!Number.isInteger(n) || (n as number) < 1) return { ok: false, error: SimErrors.belowMinimum('n', 1, n) };
  const most = family === 'dall-e-3' ? 1 : 10;
  if ((n as number) > most) return { ok: false, error: SimErrors.aboveMaximum('n', most, n) };
  if (size !== undefined && !SIZES[family]!.includes(size as string))
    return { ok: false, error: SimErrors.invalidValue('size', String(size), SIZES[family]!) };
  if (response_format !== undefined) {
    if (family === 'gpt') return { ok: false, error: SimErrors.unknownParameter('response_format') };
    if (response_format !== 'url' && response_format !== 'b64_json')
      return { ok: false, error: SimErrors.invalidValue('response_format', String(response_format), ['url', 'b64_json']) };
  }
  if (typeof stream !== 'boolean') return { ok: false, error: SimErrors.invalidType('stream', 'a boolean', typeof stream) };
  if (stream && family !== 'gpt') return { ok: false, error: SimErrors.invalidValue('stream', 'true', ['false']) };
  if (!Number.isInteger(partial_images) || (partial_images as number) < 0)
    return { ok: false, error: SimErrors.belowMinimum('partial_images', 0, partial_images) };
  if ((partial_images as number) > 3) return { ok: false, error: SimErrors.aboveMaximum('partial_images', 3, partial_images) };
  const url = family !== 'gpt' && response_format !== 'b64_json';
  return {
    ok: true,
    request: {
      model: name,
      prompt,
      n: n as number,
      family,
      size: (size as string | undefined) ?? '1024x1024',
      quality: typeof quality === 'string' ? quality : 'auto',
      url,
      ...(stream ? { stream: { partialImages: partial_images as number } } : {}),
      inputImages,
    },
  };
}

/** Generations' events are `image_generation.*`, edits' `image_edit.*`. */
type StreamPrefix = 'image_generation' | 'image_edit';

const hex = (colour: readonly number[]) => colour.map((c) => c.toString(16).padStart(2, '0')).join('');

/** The image tokens the simulated models count for each image sent to be edited (a small image's one tile, as OpenAI's vision counts it). */
export const SIM_INPUT_IMAGE_TOKENS = 255;

/**
 * GPT image models' token usage for the images made: the prompt's words as
 * text tokens, SIM_INPUT_IMAGE_TOKENS for each image sent to be edited, the
 * quality's tokens per image made.
 */
function tokenUsage(request: SimImageRequest, images: number) {
  const textTokens = request.prompt.split(/\s+/).filter(Boolean).length;
  const imageTokens = request.inputImages * SIM_INPUT_IMAGE_TOKENS;
  const outputTokens = (OUTPUT_TOKENS[request.quality] ?? 1056) * images;
  return {
    input_tokens: textTokens + imageTokens,
    input_tokens_details: { image_tokens: imageTokens, text_tokens: textTokens },
    output_tokens: outputTokens,
    total_tokens: textTokens + imageTokens + outputTokens,
  };
}

/** What a GPT image model says of the images it made, in its answer and in each stream event. */
const settings = (request: SimImageRequest) => ({
  background: 'opaque',
  output_format: 'png',
  quality: request.quality === 'auto' ? 'medium' : request.quality,
  size: request.size === 'auto' ? '1024x1024' : request.size,
});

/** The answer OpenAI gives each family: GPT image models base64 with token usage, DALL·E URLs (or base64) and, for DALL·E 3, a revised prompt. */
function answer(request: SimImageRequest, origin: string) {
  const created = Math.floor(Date.now() / 1000);
  const data = Array.from({ length: request.n }, (_, i) => {
    const colour = promptColour(request.prompt, i);
    const image = request.url ? { url: `${origin}/v1/sim-images/${hex(colour)}.png` } : { b64_json: solidPng(colour).toString('base64') };
    return request.family === 'dall-e-3' ? { ...image, revised_prompt: `A simulated rendering of: ${request.prompt}` } : image;
  });
  if (request.family !== 'gpt') return { created, data };
  return { created, ...settings(request), data, usage: tokenUsage(request, request.n) };
}

/**
 * A streamed GPT image answer, as OpenAI sends it: for each image its partial
 * images (coarser renderings of the final colour), then `{prefix}.completed`
 * with the final bytes and the usage of that image.
 */
function streamEvents(request: SimImageRequest, partialImages: number, prefix: StreamPrefix): string[] {
  const created_at = Math.floor(Date.now() / 1000);
  return Array.from({ length: request.n }, (_, i) => {
    const colour = promptColour(request.prompt, i);
    const partials = Array.from({ length: partialImages }, (_, index) => ({
      type: `${prefix}.partial_image`,
      b64_json: solidPng(colour, index + 1).toString('base64'),
      created_at,
      ...settings(request),
      partial_image_index: index,
    }));
    const completed = {
      type: `${prefix}.completed`,
      b64_json: solidPng(colour).toString('base64'),
      created_at,
      ...settings(request),
      usage: tokenUsage(request, 1),
    };
    return [...partials, completed].map((event) => JSON.stringify(event));
  }).flat();
}

/** OpenAI's image stream framing: each event named by its type (read before `malformed` may cut its data), nothing after the last, and an `error` event when it fails. */
function imagesFraming(events: readonly string[]): SseFraming {
  const names = events.map((data) => (JSON.parse(data) as { type: string }).type);
  return {
    frame: (data, index) => `event: ${names[index]}\ndata: ${data}\n\n`,
    end: '',
    errorEnd: `event: error\ndata: ${JSON.stringify({ type: 'error', ...SimErrors.serverError().body })}\n\n`,
  };
}

/**
 * `POST /v1/images/generations`, OpenAI's image API: solid-colour PNGs
 * whose colour the prompt picks, as base64 (GPT image models, or DALL·E
 * asked for b64_json) or URLs the simulator serves (`GET
 * /v1/sim-images/{rrggbb}.png`); the chat knobs in the model name or
 * headers; OpenAI's error bodies. `stream: true` (GPT image models) answers
 * server-sent events: `partial_images` (0–3) partial images, then the
 * completed image, for each image asked (`chunk_delay` between events,
 * `fail_after` cutting the stream).
 */
export async function handleImageGenerations(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const admitted = await admitOpenAIRequest(req, res, context, 'dall-e-2');
  if (!admitted) return;
  const { knobs, signal } = admitted;
  const read = readImageRequest(admitted.body, admitted.model);
  if (!read.ok) return sendError(res, read.error);
  return deliverImages(res, read.request, 'image_generation', { knobs, signal, origin: originOf(req) });
}

/** Where the simulator answers from, for the URLs of the images it hosts. */
export const originOf = (req: IncomingMessage) => `http://${req.headers.host ?? '127.0.0.1'}`;

/** Answers a checked image request: whole, or streamed as its events when asked. */
export function deliverImages(
  res: ServerResponse,
  request: SimImageRequest,
  prefix: StreamPrefix,
  { knobs, signal, origin }: { knobs: Knobs; signal: AbortSignal; origin: string },
): Promise<void> {
  if (!request.stream) return deliverJson(res, JSON.stringify(answer(request, origin)), knobs, signal);
  const events = streamEvents(request, request.stream.partialImages, prefix);
  return deliverStream(res, events, knobs, signal, imagesFraming(events));
}

/** `GET /v1/sim-images/{rrggbb}.png`: an image answered by URL. */
export function handleSimImage(res: ServerResponse, colourHex: string): void {
  const colour = [0, 2, 4].map((i) => parseInt(colourHex.slice(i, i + 2), 16)) as [number, number, number];
  const png = solidPng(colour);
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
  res.end(png);
}

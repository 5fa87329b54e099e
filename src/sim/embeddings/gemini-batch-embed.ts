import { GoogleErrors } from '../gemini/google-errors.js';
import { embeddingsRoute } from './embeddings-route.js';
import { simVector } from './sim-vectors.js';

const MAX_REQUESTS = 100;

export interface SimGeminiEmbedRequest {
  texts: string[];
  dimensions?: number;
}

/** `POST /v1beta/models/{model}:batchEmbedContents`; the model may hold knobs. */
const BATCH_EMBED_PATH = /^\/v1beta\/models\/(.+):batchEmbedContents$/;

/** The model a batchEmbedContents path names, or undefined for any other path. */
export function matchBatchEmbedCall(path: string): string | undefined {
  const match = BATCH_EMBED_PATH.exec(path);
  return match ? decodeURIComponent(match[1] ?? '') : undefined;
}

const textOf = (content: unknown): string | undefined => {
  const parts = typeof content === 'object' && content !== null ? (content as { parts?: unknown }).parts : undefined;
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  const texts = parts.map((part) => (typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined));
  return texts.every((text): text is string => typeof text === 'string') ? texts.join('') : undefined;
};

/**
 * Reads a body as batchEmbedContents checks it: 1 to 100 EmbedContentRequests,
 * each naming the model of the path, with text parts; outputDimensionality
 * taken from the first.
 */
export function readGeminiEmbedRequest(
  body: unknown,
  model: string,
  rawModel: string,
): { ok: true; request: SimGeminiEmbedRequest } | { ok: false; error: ReturnType<typeof GoogleErrors.invalidArgument> } {
  const requests = typeof body === 'object' && body !== null ? (body as { requests?: unknown }).requests : undefined;
  if (!Array.isArray(requests) || requests.length === 0)
    return { ok: false, error: GoogleErrors.invalidArgument('* BatchEmbedContentsRequest.requests: contents is not specified') };
  if (requests.length > MAX_REQUESTS)
    return {
      ok: false,
      error: GoogleErrors.invalidArgument(`* BatchEmbedContentsRequest.requests: at most ${MAX_REQUESTS} requests can be in one batch`),
    };
  const texts: string[] = [];
  let dimensions: number | undefined;
  for (const [i, request] of requests.entries()) {
    const fields = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
    if (fields.model !== `models/${rawModel}` && fields.model !== `models/${model}`) {
      return {
        ok: false,
        error: GoogleErrors.invalidArgument(
          `Model name in request ${i} (${String(fields.model)}) does not match the model of the batch, models/${model}.`,
        ),
      };
    }
    const text = textOf(fields.content);
    if (text === undefined)
      return {
        ok: false,
        error: GoogleErrors.invalidArgument(`* BatchEmbedContentsRequest.requests[${i}].content.parts: contents.parts must not be empty.`),
      };
    texts.push(text);
    if (fields.outputDimensionality !== undefined) {
      if (!(Number.isInteger(fields.outputDimensionality) && (fields.outputDimensionality as number) >= 1)) {
        return {
          ok: false,
          error: GoogleErrors.invalidArgument(`* BatchEmbedContentsRequest.requests[${i}].output_dimensionality: must be positive`),
        };
      }
      dimensions = fields.outputDimensionality as number;
    }
  }
  return { ok: true, request: { texts, ...(dimensions !== undefined ? { dimensions } : {}) } };
}

/**
 * The Gemini API's batchEmbedContents: `{embeddings: [{values}]}` in
 * request order, no usage (as the real one); Google's error bodies, the
 * key in x-goog-api-key or ?key=.
 */
export const handleGeminiBatchEmbed = embeddingsRoute<SimGeminiEmbedRequest>(
  {
    hasKey: (req) => Boolean(req.headers['x-goog-api-key'] ?? new URL(req.url ?? '/', 'http://sim').searchParams.get('key')),
    missingKey: GoogleErrors.missingApiKey,
    invalidJson: () => GoogleErrors.invalidJson('Unexpected token.'),
    invalidKnob: GoogleErrors.invalidArgument,
    // Google puts its retry hint in the body (RetryInfo), not in a header.
    simulatedStatus: (status, model, retryAfterSeconds) => GoogleErrors.simulatedStatus(status, model, retryAfterSeconds),
    read: (body, model, pathModel) => readGeminiEmbedRequest(body, model, pathModel ?? model),
    answer: ({ texts, dimensions }) => ({ embeddings: texts.map((text) => ({ values: simVector(text, dimensions) })) }),
  },
  (_, pathModel) => pathModel,
);

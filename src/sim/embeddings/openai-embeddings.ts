import { encodeBase64 } from '../../embeddings/embedding-items.js';
import { hasBearerToken } from '../chat-route.js';
import { SimErrors } from '../openai-errors.js';
import { bodyModel, embeddingsRoute } from './embeddings-route.js';
import { simTokens, simVector } from './sim-vectors.js';

/** What OpenAI's embeddings API reads; it refuses any other field. */
const FIELDS = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);
const MAX_INPUTS = 2_048;

export interface SimOpenAIEmbeddingsRequest {
  model: string;
  items: (string | number[])[];
  base64: boolean;
  dimensions?: number;
}

const isTokens = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length > 0 && value.every((x) => Number.isInteger(x) && x >= 0);

/** OpenAI's input shapes: a string, strings, a token array, token arrays; undefined for anything else. */
function inputItems(input: unknown): (string | number[])[] | undefined {
  if (typeof input === 'string') return input === '' ? undefined : [input];
  if (!Array.isArray(input)) return undefined;
  if (isTokens(input)) return [input];
  if (input.every((item) => typeof item === 'string' && item !== '')) return input as string[];
  return input.every(isTokens) ? input : undefined;
}

/** Reads a body as OpenAI's POST /v1/embeddings checks it. */
export function readOpenAIEmbeddingsRequest(
  body: unknown,
  model: string,
): { ok: true; request: SimOpenAIEmbeddingsRequest } | { ok: false; error: ReturnType<typeof SimErrors.missingModel> } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!model) return { ok: false, error: SimErrors.missingModel() };
  const unknown = Object.keys(fields).find((name) => !FIELDS.has(name));
  if (unknown !== undefined) return { ok: false, error: SimErrors.unrecognizedArgument(unknown) };
  const { input, encoding_format, dimensions } = fields;
  if (input === undefined) return { ok: false, error: SimErrors.missingParameter('input') };
  if (Array.isArray(input) && input.length === 0) return { ok: false, error: SimErrors.emptyArray('input') };
  const items = inputItems(input);
  if (!items)
    return {
      ok: false,
      error: SimErrors.invalidType(
        'input',
        'a string, an array of strings, an array of integers or an array of integer arrays',
        Array.isArray(input) ? 'an invalid array' : typeof input,
      ),
    };
  if (items.length > MAX_INPUTS) return { ok: false, error: SimErrors.arrayTooLong('input', MAX_INPUTS, items.length) };
  if (encoding_format !== undefined && encoding_format !== 'float' && encoding_format !== 'base64') {
    return { ok: false, error: SimErrors.invalidValue('encoding_format', String(encoding_format), ['float', 'base64']) };
  }
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) >= 1))
    return { ok: false, error: SimErrors.belowMinimum('dimensions', 1, dimensions) };
  return {
    ok: true,
    request: {
      model,
      items,
      base64: encoding_format === 'base64',
      ...(dimensions !== undefined ? { dimensions: dimensions as number } : {}),
    },
  };
}

/**
 * `POST /v1/embeddings`, OpenAI's embeddings API: a list of `{object,
 * index, embedding}` (floats, or base64 float32 when asked) with the model
 * and prompt_tokens; OpenAI's error bodies.
 */
export const handleOpenAIEmbeddings = embeddingsRoute<SimOpenAIEmbeddingsRequest>(
  {
    hasKey: (req) => hasBearerToken(req.headers.authorization),
    missingKey: SimErrors.missingApiKey,
    invalidJson: SimErrors.unparseableJson,
    invalidKnob: SimErrors.invalidKnob,
    simulatedStatus: (status, model, retryAfterSeconds) => ({
      ...SimErrors.simulatedStatus(status, model),
      ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
    }),
    read: readOpenAIEmbeddingsRequest,
    answer: ({ model, items, base64, dimensions }) => {
      const tokens = items.reduce((sum, item) => sum + simTokens(item), 0);
      return {
        object: 'list',
        data: items.map((item, index) => {
          const vector = simVector(item, dimensions);
          return { object: 'embedding', index, embedding: base64 ? encodeBase64(vector) : vector };
        }),
        model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    },
  },
  bodyModel,
);

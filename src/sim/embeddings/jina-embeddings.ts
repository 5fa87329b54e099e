import { encodeBase64 } from '../../embeddings/embedding-items.js';
import { hasBearerToken } from '../chat-route.js';
import { bodyModel, embeddingsRoute, type SimError } from './embeddings-route.js';
import { simTokens, simVector } from './sim-vectors.js';

const TASKS = ['retrieval.query', 'retrieval.passage', 'text-matching', 'classification', 'separation', 'code.query', 'code.passage'];
const EMBEDDING_TYPES = ['float', 'base64'];

export interface SimJinaEmbeddingsRequest {
  model: string;
  texts: string[];
  base64: boolean;
  dimensions?: number;
}

const detail = (status: number, message: string): SimError => ({ status, body: { detail: message } });
/** FastAPI's validation answer: 422 with the field's location and what is wrong. */
const invalid = (field: string, msg: string): SimError => ({
  status: 422,
  body: { detail: [{ loc: ['body', field], msg, type: 'value_error' }] },
});

/** Reads a body as Jina's POST /v1/embeddings checks it: texts (strings, or `{text}` objects), embedding_type, task, dimensions. */
export function readJinaEmbeddingsRequest(
  body: unknown,
  model: string,
): { ok: true; request: SimJinaEmbeddingsRequest } | { ok: false; error: SimError } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!model) return { ok: false, error: invalid('model', 'Field required') };
  const { input, embedding_type, task, dimensions } = fields;
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list) || list.length === 0) return { ok: false, error: invalid('input', 'Input should be a non-empty list of texts') };
  const texts = list.map((item) =>
    typeof item === 'string'
      ? item
      : typeof item === 'object' && item !== null && typeof (item as { text?: unknown }).text === 'string'
        ? (item as { text: string }).text
        : undefined,
  );
  if (texts.some((text) => text === undefined)) return { ok: false, error: invalid('input', 'Input should be a valid string') };
  if (embedding_type !== undefined && !EMBEDDING_TYPES.includes(embedding_type as string)) {
    return { ok: false, error: invalid('embedding_type', `sim: embedding_type must be one of ${EMBEDDING_TYPES.join(', ')}`) };
  }
  if (task !== undefined && !TASKS.includes(task as string))
    return { ok: false, error: invalid('task', `Input should be ${TASKS.map((t) => `'${t}'`).join(', ')}`) };
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) >= 1))
    return { ok: false, error: invalid('dimensions', 'Input should be greater than 0') };
  return {
    ok: true,
    request: {
      model,
      texts: texts as string[],
      base64: embedding_type === 'base64',
      ...(dimensions !== undefined ? { dimensions: dimensions as number } : {}),
    },
  };
}

/**
 * Jina's `POST /v1/embeddings`, served by the simulator under `/jina/v1`
 * (OpenAI's API has the same path): OpenAI's list shape with the model and
 * token usage; errors `{"detail"}`, validation errors FastAPI's 422.
 */
export const handleJinaEmbeddings = embeddingsRoute<SimJinaEmbeddingsRequest>(
  {
    hasKey: (req) => hasBearerToken(req.headers.authorization),
    missingKey: () => detail(401, 'No API key provided'),
    invalidJson: () => detail(400, 'Invalid JSON body'),
    invalidKnob: (message) => detail(400, message),
    simulatedStatus: (status, _model, retryAfterSeconds) => ({
      ...detail(
        status,
        status === 429 ? 'Rate limit exceeded' : status >= 500 ? 'internal server error' : `simulated HTTP ${status} error`,
      ),
      ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
    }),
    read: readJinaEmbeddingsRequest,
    answer: ({ model, texts, base64, dimensions }) => {
      const tokens = texts.reduce((sum, text) => sum + simTokens(text), 0);
      return {
        model,
        object: 'list',
        usage: { total_tokens: tokens, prompt_tokens: tokens },
        data: texts.map((text, index) => {
          const vector = simVector(text, dimensions);
          return { object: 'embedding', index, embedding: base64 ? encodeBase64(vector) : vector };
        }),
      };
    },
  },
  bodyModel,
);

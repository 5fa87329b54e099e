import { randomUUID } from 'node:crypto';
import { encodeBase64 } from '../../embeddings/embedding-items.js';
import { hasBearerToken } from '../chat-route.js';
import { bodyModel, embeddingsRoute, type SimError } from './embeddings-route.js';
import { simTokens, simVector } from './sim-vectors.js';

const INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering', 'image'];
const EMBEDDING_TYPES = ['float', 'base64'];
const MAX_TEXTS = 96;

export interface SimCohereEmbedRequest {
  model: string;
  texts: string[];
  types: string[];
  dimensions?: number;
}

const error = (status: number, message: string): SimError => ({ status, body: { id: randomUUID(), message } });
const invalid = (message: string) => ({ ok: false as const, error: error(400, `invalid request: ${message}`) });

/** Reads a body as Cohere's POST /v2/embed checks it: texts, a required input_type, embedding_types, output_dimension. */
export function readCohereEmbedRequest(
  body: unknown,
  model: string,
): { ok: true; request: SimCohereEmbedRequest } | { ok: false; error: SimError } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!model) return invalid('model must be specified');
  const { texts, input_type, embedding_types, output_dimension } = fields;
  if (!Array.isArray(texts) || texts.length === 0) return invalid('list of texts must not be empty');
  if (!texts.every((text) => typeof text === 'string')) return invalid('texts must be strings');
  if (texts.length > MAX_TEXTS) return invalid(`total number of texts must be at most ${MAX_TEXTS} - received ${texts.length}`);
  if (typeof input_type !== 'string' || !INPUT_TYPES.includes(input_type))
    return invalid(`valid input_type must be provided with the provided model (one of ${INPUT_TYPES.join(', ')})`);
  const types = embedding_types === undefined ? ['float'] : embedding_types;
  if (!Array.isArray(types) || !types.every((type) => EMBEDDING_TYPES.includes(type as string)))
    return invalid(`sim: embedding_types must be among ${EMBEDDING_TYPES.join(', ')}`);
  if (output_dimension !== undefined && ![256, 512, 1024, 1536].includes(output_dimension as number))
    return invalid('output_dimension must be one of 256, 512, 1024, 1536');
  return {
    ok: true,
    request: {
      model,
      texts,
      types: types as string[],
      ...(output_dimension !== undefined ? { dimensions: output_dimension as number } : {}),
    },
  };
}

/**
 * `POST /v2/embed`, Cohere's embed v2: vectors by embedding type
 * (`embeddings.float`, `embeddings.base64`), the texts, billed input tokens;
 * errors `{"id", "message"}`.
 */
export const handleCohereEmbed = embeddingsRoute<SimCohereEmbedRequest>(
  {
    hasKey: (req) => hasBearerToken(req.headers.authorization),
    missingKey: () => error(401, 'no api key supplied'),
    invalidJson: () => error(400, 'invalid request: the body is not valid JSON'),
    invalidKnob: (message) => error(400, message),
    simulatedStatus: (status, _model, retryAfterSeconds) => ({
      ...error(
        status,
        status === 429
          ? 'You are past the per minute request limit, please wait and try again later.'
          : status >= 500
            ? 'internal server error'
            : `simulated HTTP ${status} error`,
      ),
      ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
    }),
    read: readCohereEmbedRequest,
    answer: ({ texts, types, dimensions }) => {
      const vectors = texts.map((text) => simVector(text, dimensions));
      const embeddings: Record<string, unknown> = {};
      if (types.includes('float')) embeddings.float = vectors;
      if (types.includes('base64')) embeddings.base64 = vectors.map(encodeBase64);
      return {
        id: randomUUID(),
        embeddings,
        texts,
        meta: { api_version: { version: '2' }, billed_units: { input_tokens: texts.reduce((sum, text) => sum + simTokens(text), 0) } },
        response_type: 'embeddings_by_type',
      };
    },
  },
  bodyModel,
);

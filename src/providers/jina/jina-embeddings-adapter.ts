import { convertOpenAIEmbeddingsResponse } from '../openai/convert-openai-embeddings-response.js';
import { bearerKey } from '../shared/bearer-key.js';
import { httpEmbeddingsAdapter } from '../shared/http-embeddings-adapter.js';
import { convertToJinaEmbeddingsRequest } from './convert-to-jina-embeddings-request.js';
import { parseJinaError } from './parse-jina-error.js';

/** Jina's embeddings API (POST {base}/embeddings, at most 2,048 texts a call): OpenAI's answer shape, FastAPI's `{"detail"}` errors. */
export const jinaEmbeddingsAdapter = httpEmbeddingsAdapter({
  kind: 'jina',
  acceptsTokens: false,
  maxBatch: 2_048,
  path: () => 'embeddings',
  headers: bearerKey,
  toRequestBody: convertToJinaEmbeddingsRequest,
  fromResponseBody: convertOpenAIEmbeddingsResponse,
  parseProviderError: parseJinaError,
});

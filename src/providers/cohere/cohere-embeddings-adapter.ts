import { parseOpenAIError } from '../openai/parse-openai-error.js';
import { bearerKey } from '../shared/bearer-key.js';
import { httpEmbeddingsAdapter } from '../shared/http-embeddings-adapter.js';
import { convertCohereEmbedResponse } from './convert-cohere-embed-response.js';
import { convertToCohereEmbedRequest } from './convert-to-cohere-embed-request.js';

/** Cohere's embed API, v2 (POST {base}/embed, at most 96 texts a call); its flat `{"id", "message"}` errors read as rerank's do. */
export const cohereEmbeddingsAdapter = httpEmbeddingsAdapter({
  kind: 'cohere',
  acceptsTokens: false,
  maxBatch: 96,
  path: () => 'embed',
  headers: bearerKey,
  toRequestBody: convertToCohereEmbedRequest,
  fromResponseBody: convertCohereEmbedResponse,
  parseProviderError: parseOpenAIError,
});

import { bearerKey } from '../shared/bearer-key.js';
import { httpEmbeddingsAdapter } from '../shared/http-embeddings-adapter.js';
import { convertOpenAIEmbeddingsResponse } from './convert-openai-embeddings-response.js';
import { convertToOpenAIEmbeddingsRequest } from './convert-to-openai-embeddings-request.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** OpenAI's embeddings API (POST {base}/embeddings) and the many hosts that copy it; it takes up to 2,048 inputs a call, token arrays too. */
export const openAIEmbeddingsAdapter = httpEmbeddingsAdapter({
  kind: 'openai',
  acceptsTokens: true,
  maxBatch: 2_048,
  path: () => 'embeddings',
  headers: bearerKey,
  toRequestBody: convertToOpenAIEmbeddingsRequest,
  fromResponseBody: convertOpenAIEmbeddingsResponse,
  parseProviderError: parseOpenAIError,
});

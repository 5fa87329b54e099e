import { parseOpenAIError } from '../openai/parse-openai-error.js';
import { httpRerankAdapter } from '../shared/http-rerank-adapter.js';
import { convertCohereRerankResponse } from './convert-cohere-rerank-response.js';
import { convertToCohereRerankRequest } from './convert-to-cohere-rerank-request.js';

/**
 * Cohere's rerank API, v2 (base URL https://api.cohere.com/v2). Its error body
 * is the flat `{"id", "message"}` that the OpenAI-compatible parser already reads.
 */
export const cohereRerankAdapter = httpRerankAdapter({
  kind: 'cohere',
  toRequestBody: convertToCohereRerankRequest,
  fromResponseBody: convertCohereRerankResponse,
  parseProviderError: parseOpenAIError,
});

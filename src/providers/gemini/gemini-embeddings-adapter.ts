import { httpEmbeddingsAdapter } from '../shared/http-embeddings-adapter.js';
import { convertGeminiEmbedResponse } from './convert-gemini-embed-response.js';
import { convertToGeminiEmbedRequest } from './convert-to-gemini-embed-request.js';
import { parseGeminiError } from './parse-gemini-error.js';

/** Gemini's batchEmbedContents (at most 100 requests a batch), the key in x-goog-api-key; texts only. */
export const geminiEmbeddingsAdapter = httpEmbeddingsAdapter({
  kind: 'gemini',
  acceptsTokens: false,
  maxBatch: 100,
  path: (target) => `models/${target.upstreamModel}:batchEmbedContents`,
  headers: (target): Record<string, string> => (target.apiKey ? { 'x-goog-api-key': target.apiKey } : {}),
  toRequestBody: convertToGeminiEmbedRequest,
  fromResponseBody: convertGeminiEmbedResponse,
  parseProviderError: parseGeminiError,
});

import { httpRerankAdapter } from '../shared/http-rerank-adapter.js';
import { convertJinaRerankResponse } from './convert-jina-rerank-response.js';
import { convertToJinaRerankRequest } from './convert-to-jina-rerank-request.js';
import { parseJinaError } from './parse-jina-error.js';

/** Jina's /v1/rerank (base URL https://api.jina.ai/v1) and the hosts that serve the same protocol. */
export const jinaRerankAdapter = httpRerankAdapter({
  kind: 'jina',
  toRequestBody: convertToJinaRerankRequest,
  fromResponseBody: convertJinaRerankResponse,
  parseProviderError: parseJinaError,
});

import type { RerankRequest } from '../../protocol/rerank.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import type { CohereRerankRequest } from './cohere-rerank-api-types.js';

/** The v2 body: the endpoint's model id; the gateway fills in the document texts itself, so none are asked back. */
export function convertToCohereRerankRequest(request: RerankRequest, target: Pick<UpstreamTarget, 'upstreamModel'>): CohereRerankRequest {
  return {
    model: target.upstreamModel,
    query: request.query,
    documents: request.documents,
    ...(request.top_n !== undefined ? { top_n: request.top_n } : {}),
  };
}

import type { RerankRequest } from '../../protocol/rerank.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import type { JinaRerankRequest } from './jina-rerank-api-types.js';

/**
 * The /v1/rerank body: the endpoint's model id, and `return_documents: false`
 * because the gateway fills in the document texts itself (Jina echoes them by
 * default, doubling the answer).
 */
export function convertToJinaRerankRequest(request: RerankRequest, target: Pick<UpstreamTarget, 'upstreamModel'>): JinaRerankRequest {
  return {
    model: target.upstreamModel,
    query: request.query,
    documents: request.documents,
    ...(request.top_n !== undefined ? { top_n: request.top_n } : {}),
    return_documents: false,
  };
}

import type { RerankAdapter } from '../../protocol/adapters.js';
import type { RerankRequest, UpstreamRerank } from '../../protocol/rerank.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { readUpstreamAnswer } from './read-upstream-body.js';
import { sendUpstreamRequest } from './send-upstream-request.js';
import type { ProviderErrorParser } from './upstream-status-error.js';

/** One provider's rerank protocol: the body it takes, how its answer and its errors read. */
export interface RerankProtocol {
  kind: string;
  toRequestBody(request: RerankRequest, target: UpstreamTarget): unknown;
  /** The canonical answer, or undefined when the body is not this protocol's answer. */
  fromResponseBody(body: unknown): UpstreamRerank | undefined;
  parseProviderError: ProviderErrorParser;
}

/**
 * An adapter for a rerank API that takes one JSON POST to `{base URL}/rerank`
 * with a bearer key and answers in one JSON body: Cohere's v2, and Jina's
 * /v1/rerank with the many hosts that copy it.
 */
export function httpRerankAdapter(protocol: RerankProtocol): RerankAdapter {
  return {
    kind: protocol.kind,
    async rerank(request, target, context) {
      const response = await sendUpstreamRequest({
        url: `${target.baseUrl.replace(/\/+$/, '')}/rerank`,
        headers: { accept: 'application/json', ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}), ...target.headers },
        body: protocol.toRequestBody(request, target),
        timeoutMs: target.timeoutMs,
        context,
        parseProviderError: protocol.parseProviderError,
      });
      return readUpstreamAnswer(response, protocol.fromResponseBody, 'rerank results');
    },
  };
}

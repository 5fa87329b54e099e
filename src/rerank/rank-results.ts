import type { RerankRequest, RerankResult, RerankScore } from '../protocol/rerank.js';
import { UpstreamError } from '../protocol/upstream.js';

/**
 * The response's results from a provider's scores: most relevant first (equal
 * scores keep the documents' input order), at most top_n, each with its
 * document's text. The gateway sorts and cuts itself rather than trust every
 * host to. A score for a document that was not sent, or a second score for
 * one, makes the answer malformed, so the plan moves on to the next endpoint.
 */
export function rankResults(scores: readonly RerankScore[], request: Pick<RerankRequest, 'documents' | 'top_n'>): RerankResult[] {
  const seen = new Set<number>();
  for (const { index } of scores) {
    if (index < 0 || index >= request.documents.length || seen.has(index)) {
      throw new UpstreamError(
        'malformed',
        `upstream scored document ${index}, which is not one of the ${request.documents.length} sent or was scored twice`,
      );
    }
    seen.add(index);
  }
  return [...scores]
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, request.top_n ?? scores.length)
    .map(({ index, relevance_score }) => ({ index, relevance_score, document: { text: request.documents[index]! } }));
}

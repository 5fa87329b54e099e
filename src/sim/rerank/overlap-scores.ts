import type { RerankScore } from '../../protocol/rerank.js';
import { words } from '../../providers/local/bm25-relevance.js';

/**
 * The simulator's deterministic relevance: the share of the query's distinct
 * words that the document contains (0 to 1), most relevant first, equal
 * scores in input order, cut to top_n as the real APIs do.
 */
export function overlapScores(query: string, documents: readonly string[], topN?: number): RerankScore[] {
  const wanted = new Set(words(query));
  return documents
    .map((document, index) => {
      // Walk the document's words, not the query's for each document: linear in what was sent.
      const shared = new Set(words(document).filter((word) => wanted.has(word))).size;
      return { index, relevance_score: wanted.size === 0 ? 0 : shared / wanted.size };
    })
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN ?? documents.length);
}

import { tokenCapacity } from '../accounting/check-usage.js';
import { estimateTokens } from '../chat/estimate-tokens.js';
import type { ReportedRerankUsage, RerankRequest, RerankUsage } from '../protocol/rerank.js';
import { isCount } from '../protocol/usage-counts.js';

/** Cohere's search units: one per query against up to 100 documents. */
export const countSearchUnits = (documents: number): number => Math.max(1, Math.ceil(documents / 100));

/** The smallest piece a reranker splits a long document into (Cohere's v1 split at 512 tokens with the query). */
const CHUNK_TOKENS = 256;

/**
 * The most a rerank's figures can be: tokens of the query read with each
 * document (tokenCapacity), and search units of every document cut into
 * chunks of CHUNK_TOKENS.
 */
function rerankBounds({ query, documents }: Pick<RerankRequest, 'query' | 'documents'>): { searchUnits: number; totalTokens: number } {
  let totalTokens = 0;
  let chunks = 0;
  for (const document of documents) {
    const tokens = tokenCapacity(query.length + document.length, 2);
    totalTokens += tokens;
    chunks += Math.ceil(tokens / CHUNK_TOKENS);
  }
  return { searchUnits: countSearchUnits(chunks), totalTokens };
}

/**
 * The usage a rerank is billed and answered with. What the provider reported
 * wins when it is a count that fits the request (rerankBounds); what it did
 * not report, or could not have counted, is counted by the gateway so that
 * both prices mean the same on every endpoint: search units as Cohere counts
 * them (one per started 100 documents), tokens as four characters each of
 * the query and every document. `estimated` says whether anything was counted.
 */
export function rerankUsage(
  reported: ReportedRerankUsage,
  request: Pick<RerankRequest, 'query' | 'documents'>,
): { usage: Omit<RerankUsage, 'cost'>; estimated: boolean } {
  const bounds = rerankBounds(request);
  const fits = (value: unknown, most: number): value is number => isCount(value) && value <= most;
  const unitsOk = fits(reported.search_units, bounds.searchUnits);
  const tokensOk = fits(reported.total_tokens, bounds.totalTokens);
  return {
    usage: {
      search_units: unitsOk ? reported.search_units! : countSearchUnits(request.documents.length),
      total_tokens: tokensOk ? reported.total_tokens! : estimateTokens(request.query + request.documents.join('')),
    },
    estimated: !(unitsOk && tokensOk),
  };
}

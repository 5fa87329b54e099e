import { estimateTokens } from '../chat/estimate-tokens.js';
import type { RerankRequest, RerankUsage, ReportedRerankUsage } from './types.js';

/** Cohere's search units: one per query against up to 100 documents. */
export const countSearchUnits = (documents: number): number => Math.max(1, Math.ceil(documents / 100));

/**
 * The usage a rerank is billed and answered with. What the provider reported
 * wins; what it did not is counted by the gateway so that both prices mean
 * the same on every endpoint: search units as Cohere counts them (one per
 * started 100 documents), tokens as four characters each of the query and
 * every document. `estimated` says whether anything was counted.
 */
export function rerankUsage(
  reported: ReportedRerankUsage,
  request: Pick<RerankRequest, 'query' | 'documents'>,
): { usage: Omit<RerankUsage, 'cost'>; estimated: boolean } {
  const searchUnits = reported.search_units ?? countSearchUnits(request.documents.length);
  const totalTokens = reported.total_tokens ?? estimateTokens(request.query + request.documents.join(''));
  return {
    usage: { search_units: searchUnits, total_tokens: totalTokens },
    estimated: reported.search_units === undefined || reported.total_tokens === undefined,
  };
}

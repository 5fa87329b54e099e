import type { RerankAdapter } from '../../protocol/adapters.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { type Bm25Ranking, bm25Relevance } from './bm25-relevance.js';

/** The rankers the gateway runs itself, by the endpoint's upstream model. */
const RANKERS: Readonly<Record<string, (query: string, documents: readonly string[]) => Bm25Ranking>> = {
  bm25: bm25Relevance,
};

/**
 * The `local` kind: ranks in the gateway's own process, with no network and
 * no key. Its usage is the words it read; search units are counted by the
 * gateway like any provider's that reports none.
 */
export const localRerankAdapter: RerankAdapter = {
  kind: 'local',
  async rerank(request, target, context) {
    if (context.signal.aborted) throw new UpstreamError('aborted', 'request cancelled by the caller');
    const rank = RANKERS[target.upstreamModel];
    if (!rank) {
      throw new UpstreamError('status', `no local ranker "${target.upstreamModel}" (known: ${Object.keys(RANKERS).join(', ')})`, {
        status: 404,
      });
    }
    const { scores, words } = rank(request.query, request.documents);
    return { scores: scores.map((relevance_score, index) => ({ index, relevance_score })), usage: { total_tokens: words } };
  },
};

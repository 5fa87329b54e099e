import { describe, expect, it } from 'vitest';
import type { RerankRequest } from '../../protocol/rerank.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { rankResults } from '../../rerank/rank-results.js';
import { localRerankAdapter } from './local-rerank-adapter.js';

const request: RerankRequest = {
  model: 'local/bm25',
  query: 'capital of France',
  documents: ['Berlin is in Germany.', 'Paris is the capital of France.'],
};
const target = (upstreamModel: string): UpstreamTarget => ({
  providerId: 'gateway',
  kind: 'local',
  baseUrl: '',
  upstreamModel,
  timeoutMs: 1_000,
});
const live = { signal: new AbortController().signal };

describe('localRerankAdapter', () => {
  it('scores every document in input order and reports the words it read', async () => {
    const answer = await localRerankAdapter.rerank(request, target('bm25'), live);
    expect(answer.scores.map((s) => s.index)).toEqual([0, 1]);
    expect(answer.scores[1]!.relevance_score).toBeGreaterThan(answer.scores[0]!.relevance_score);
    expect(answer.usage).toEqual({ total_tokens: 3 + 4 + 6 });
  });

  it('ranks, once sorted, the relevant document first, keeps top_n, and keeps ties in input order', async () => {
    const ties = {
      ...request,
      query: 'capital',
      documents: ['no match', 'the capital', 'Paris is the capital of France.', 'the capital'],
      top_n: 3,
    };
    const { scores } = await localRerankAdapter.rerank(ties, target('bm25'), live);
    expect(rankResults(scores, ties).map((r) => r.index)).toEqual([1, 3, 2]);
  });

  it('refuses a ranker it does not have, as a 404 of the provider', async () => {
    await expect(localRerankAdapter.rerank(request, target('colbert'), live)).rejects.toMatchObject({
      failure: 'status',
      details: { status: 404 },
      message: 'no local ranker "colbert" (known: bm25)',
    });
  });

  it('does no work for a client that has gone', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(localRerankAdapter.rerank(request, target('bm25'), { signal: controller.signal })).rejects.toBeInstanceOf(UpstreamError);
  });
});

import type { RerankScore } from '../../protocol/rerank.js';
import { isRecord } from '../../util/is-record.js';

/**
 * The `{index, relevance_score}` items every rerank API answers with (Cohere,
 * Jina and the hosts that copy it); anything else in an item (an echoed
 * document) is ignored. Undefined when one item lacks an integer index or a
 * finite score: the answer is not a ranking.
 */
export function readRerankScores(items: readonly unknown[]): RerankScore[] | undefined {
  const scores: RerankScore[] = [];
  for (const item of items) {
    if (!isRecord(item)) return undefined;
    const { index, relevance_score } = item;
    if (!Number.isInteger(index) || typeof relevance_score !== 'number' || !Number.isFinite(relevance_score)) return undefined;
    scores.push({ index: index as number, relevance_score });
  }
  return scores;
}

/** A non-negative integer count a double holds exactly, or undefined. */
export const readCount = (value: unknown): number | undefined =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;

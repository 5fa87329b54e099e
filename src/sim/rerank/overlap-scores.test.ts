import { describe, expect, it } from 'vitest';
import { overlapScores } from './overlap-scores.js';

describe('overlapScores', () => {
  const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas.'];

  it('scores the share of query words a document holds, best first', () => {
    expect(overlapScores('capital of France', documents)).toEqual([
      { index: 1, relevance_score: 1 },
      { index: 0, relevance_score: 2 / 3 },
      { index: 2, relevance_score: 0 },
    ]);
  });

  it('keeps input order among equal scores and cuts to top_n', () => {
    expect(overlapScores('capital', documents, 2)).toEqual([
      { index: 0, relevance_score: 1 },
      { index: 1, relevance_score: 1 },
    ]);
  });

  it('scores 0 for a query without words', () => {
    expect(overlapScores('?', ['a']).map((s) => s.relevance_score)).toEqual([0]);
  });
});

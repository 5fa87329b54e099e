import { describe, expect, it } from 'vitest';
import { readCount, readRerankScores } from './read-rerank-scores.js';

describe('readRerankScores', () => {
  it('keeps index and score, ignoring echoed documents', () => {
    expect(
      readRerankScores([
        { index: 1, relevance_score: 0.5, document: { text: 'x' } },
        { index: 0, relevance_score: 0 },
      ]),
    ).toEqual([
      { index: 1, relevance_score: 0.5 },
      { index: 0, relevance_score: 0 },
    ]);
  });

  it.each([
    ['a missing score', [{ index: 0 }]],
    ['a fractional index', [{ index: 0.5, relevance_score: 1 }]],
    ['a score as text', [{ index: 0, relevance_score: '0.9' }]],
    ['an item that is not an object', [3]],
  ])('refuses %s', (_, items) => {
    expect(readRerankScores(items)).toBeUndefined();
  });
});

describe('readCount', () => {
  it('reads non-negative integers only', () => {
    expect([3, 0, -1, 1.5, '2', null].map(readCount)).toEqual([3, 0, undefined, undefined, undefined, undefined]);
  });
});

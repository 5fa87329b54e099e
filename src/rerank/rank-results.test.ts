import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../protocol/upstream.js';
import { rankResults } from './rank-results.js';

const documents = ['alpha', 'beta', 'gamma'];
const scores = [
  { index: 0, relevance_score: 0.2 },
  { index: 1, relevance_score: 0.9 },
  { index: 2, relevance_score: 0.5 },
];

describe('rankResults', () => {
  it('sorts by relevance and attaches each document', () => {
    expect(rankResults(scores, { documents })).toEqual([
      { index: 1, relevance_score: 0.9, document: { text: 'beta' } },
      { index: 2, relevance_score: 0.5, document: { text: 'gamma' } },
      { index: 0, relevance_score: 0.2, document: { text: 'alpha' } },
    ]);
  });

  it('keeps the most relevant top_n', () => {
    expect(rankResults(scores, { documents, top_n: 2 }).map((r) => r.index)).toEqual([1, 2]);
    expect(rankResults(scores, { documents, top_n: 10 })).toHaveLength(3);
  });

  it('breaks ties by input order, whatever order the provider answered in', () => {
    const tied = [2, 0, 1].map((index) => ({ index, relevance_score: 0.5 }));
    expect(rankResults(tied, { documents }).map((r) => r.index)).toEqual([0, 1, 2]);
  });

  it('accepts fewer scores than documents (a provider that applied top_n)', () => {
    expect(rankResults([{ index: 2, relevance_score: 1 }], { documents })).toEqual([
      { index: 2, relevance_score: 1, document: { text: 'gamma' } },
    ]);
  });

  it.each([
    ['a document that was not sent', [{ index: 3, relevance_score: 1 }]],
    ['a negative index', [{ index: -1, relevance_score: 1 }]],
    [
      'a document scored twice',
      [
        { index: 0, relevance_score: 1 },
        { index: 0, relevance_score: 0.5 },
      ],
    ],
  ])('calls an answer with %s malformed', (_, bad) => {
    expect(() => rankResults(bad, { documents })).toThrow(UpstreamError);
    expect(() => rankResults(bad, { documents })).toThrow(expect.objectContaining({ failure: 'malformed' }));
  });
});

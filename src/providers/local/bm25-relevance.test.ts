import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25Relevance, words } from './bm25-relevance.js';

const documents = [
  'Berlin is the capital of Germany.',
  'Paris is the capital of France.',
  'The Eiffel Tower is a landmark in Paris.',
  'Bananas are rich in potassium.',
];

describe('words', () => {
  it('lower-cases runs of letters and digits in any script, dropping punctuation', () => {
    expect(words("C++ in Zürich's 2nd café: 東京!")).toEqual(['c', 'in', 'zürich', 's', '2nd', 'café', '東京']);
  });
});

describe('bm25Relevance', () => {
  it('scores the obviously relevant document highest', () => {
    const { scores } = bm25Relevance('What is the capital of France?', documents);
    const best = scores.indexOf(Math.max(...scores));
    expect(best).toBe(1);
    expect(scores[3]).toBe(0);
  });

  it('keeps every score within 0..1, below the ceiling even for a document that repeats the query', () => {
    const { scores } = bm25Relevance('paris', ['paris paris paris paris paris', 'paris', 'rome']);
    for (const score of scores) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThan(1);
    }
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[2]).toBe(0);
  });

  it('matches whole words only, and survives regex characters in the query', () => {
    const { scores } = bm25Relevance('cat (c++)?', ['a category of things', 'the cat sat', 'c++ templates']);
    expect(scores[0]).toBe(0);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[2]).toBeGreaterThan(0);
  });

  it('leaves a query word no document has out of the limit', () => {
    expect(bm25Relevance('capital zebra', documents).scores).toEqual(bm25Relevance('capital', documents).scores);
  });

  it('ignores case and counts a repeated query word once', () => {
    expect(bm25Relevance('PARIS paris Paris', documents).scores).toEqual(bm25Relevance('paris', documents).scores);
  });

  it('gives equal documents equal scores', () => {
    const { scores } = bm25Relevance('capital', ['the capital', 'the capital', 'nothing']);
    expect(scores[0]).toBe(scores[1]);
  });

  it('scores 0 when there is nothing to match, and counts the words it read', () => {
    expect(bm25Relevance('?!', ['some text'])).toEqual({ scores: [0], words: 2 });
    expect(bm25Relevance('paris', ['', '...'])).toEqual({ scores: [0, 0], words: 1 });
    expect(bm25Relevance('capital of France', documents).words).toBe(3 + 6 + 6 + 8 + 5);
  });
});

describe('bm25Relevance against the textbook formula', () => {
  /** Okapi BM25 as written: for each query word, its IDF over the documents and its frequency in each, then the normalisation. */
  function textbook(query: string, documents: string[]): number[] {
    const docs = documents.map(words);
    const keywords = [...new Set(words(query))].filter((k) => docs.some((d) => d.includes(k)));
    if (keywords.length === 0) return documents.map(() => 0);
    const average = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
    const idf = (k: string) => {
      const n = docs.filter((d) => d.includes(k)).length;
      return Math.log((docs.length - n + 0.5) / (n + 0.5) + 1);
    };
    const ceiling = keywords.reduce((sum, k) => sum + idf(k) * 2.2, 0);
    return docs.map(
      (d) =>
        keywords.reduce((sum, k) => {
          const f = d.filter((w) => w === k).length;
          return sum + (idf(k) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / average));
        }, 0) / ceiling,
    );
  }

  it('gives the same scores for any query and documents', () => {
    const word = fc.constantFrom('paris', 'capital', 'of', 'france', 'the', 'cat', 'c', 'x1', 'zürich', '東京');
    const text = fc.array(word, { maxLength: 15 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 6 }), (query, docs) => {
        const { scores } = bm25Relevance(query, docs);
        const expected = textbook(query, docs);
        for (const [i, score] of scores.entries()) expect(score).toBeCloseTo(expected[i]!, 12);
      }),
    );
  });
});

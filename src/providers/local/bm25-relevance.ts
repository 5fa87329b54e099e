import { createRequire } from 'node:module';
import type okapibm25 from 'okapibm25';

// A CommonJS module with `exports.default`: ESM importers disagree on what its
// default import is (Node: the exports object; Vite, under vitest: the
// function), while require reads it the same way everywhere.
const { default: BM25, getIDF } = createRequire(import.meta.url)('okapibm25') as typeof okapibm25;

// The library's defaults, stated because the normalisation below depends on k1.
const K1 = 1.2;
const B = 0.75;

/** Lower-cased runs of letters and digits, in any script: the words BM25 counts. */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Each distinct word as `<tN>`. The library counts a term with
 * `new RegExp(term)` and finds it with `includes`: raw words would throw on
 * regex characters and match inside longer words ("cat" in "category"); a
 * code is plain ASCII, delimited, and one \w+ run for its word count.
 */
function encoder(): (tokens: readonly string[]) => string[] {
  const codes = new Map<string, string>();
  return (tokens) =>
    tokens.map((token) => {
      let code = codes.get(token);
      if (code === undefined) codes.set(token, (code = `<t${codes.size}>`));
      return code;
    });
}

export interface Bm25Ranking {
  /** Per document, in input order, 0 to 1. */
  scores: number[];
  /** Words in the query and all documents: the ranker's usage. */
  words: number;
}

/**
 * Okapi BM25 relevance of each document to the query, normalised to 0..1 by
 * the largest score any document could reach: the sum, over the query words
 * that occur in some document, of IDF × (k1 + 1), the limit of a document
 * that repeats each of them. So 0 means no query word occurs, and no document
 * gets 1 just by being the best of a poor lot; a query word no document has
 * ("what") cannot tell documents apart and is left out of the limit. Repeated
 * query words count once.
 */
export function bm25Relevance(query: string, documents: readonly string[]): Bm25Ranking {
  const encode = encoder();
  const queryWords = words(query);
  const documentWords = documents.map(words);
  const total = queryWords.length + documentWords.reduce((sum, w) => sum + w.length, 0);

  const corpus = documentWords.map((w) => encode(w).join(''));
  const keywords = encode([...new Set(queryWords)]).filter((keyword) => corpus.some((document) => document.includes(keyword)));
  // Nothing to match; the library would also divide by a zero average length when every document is empty.
  if (keywords.length === 0) return { scores: documents.map(() => 0), words: total };
  // Without a sorter the library returns plain scores, in document order.
  const raw = BM25(corpus, keywords, { k1: K1, b: B }) as number[];
  const ceiling = keywords.reduce((sum, keyword) => sum + getIDF(keyword, corpus) * (K1 + 1), 0);
  return { scores: raw.map((score) => score / ceiling), words: total };
}

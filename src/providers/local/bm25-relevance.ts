// Okapi BM25's usual parameters.
const K1 = 1.2;
const B = 0.75;

/** Lower-cased runs of letters and digits, in any script: the words BM25 counts. */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

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
  const queryWords = words(query);
  const documentWords = documents.map(words);
  const total = queryWords.length + documentWords.reduce((sum, w) => sum + w.length, 0);
  // Each distinct query word by its position: scores sum over them in the query's order.
  const keywords = new Map<string, number>();
  for (const word of queryWords) if (!keywords.has(word)) keywords.set(word, keywords.size);
  // One pass over every document's words: how often each query word occurs in it.
  const frequencies = documentWords.map((found) => {
    const counts = new Map<number, number>();
    for (const word of found) {
      const keyword = keywords.get(word);
      if (keyword !== undefined) counts.set(keyword, (counts.get(keyword) ?? 0) + 1);
    }
    return counts;
  });
  const containing = new Array<number>(keywords.size).fill(0);
  for (const counts of frequencies) for (const keyword of counts.keys()) containing[keyword]!++;
  const idf = containing.map((n) => Math.log((documents.length - n + 0.5) / (n + 0.5) + 1));
  const ceiling = containing.reduce((sum, n, keyword) => (n > 0 ? sum + idf[keyword]! * (K1 + 1) : sum), 0);
  // Nothing to match (and every document may be empty, with no average length).
  if (ceiling === 0) return { scores: documents.map(() => 0), words: total };
  const averageLength = documentWords.reduce((sum, w) => sum + w.length, 0) / documents.length;
  const scores = frequencies.map((counts, index) => {
    const norm = K1 * (1 - B + (B * documentWords[index]!.length) / averageLength);
    let score = 0;
    for (const keyword of [...counts.keys()].sort((a, b) => a - b)) {
      const frequency = counts.get(keyword)!;
      score += (idf[keyword]! * (frequency * (K1 + 1))) / (frequency + norm);
    }
    return score / ceiling;
  });
  return { scores, words: total };
}

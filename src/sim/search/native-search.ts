import { type CorpusPage, firstSentence, searchCorpus } from './search-corpus.js';

/** What a simulated model that searched by itself found and says: the opening, then a sentence quoted from the best page. */
export interface NativeSearch {
  query: string;
  pages: CorpusPage[];
  opening: string;
  sentence: string;
}

const OPENING = 'This is a simulated reply. ';
const PAGES = 3;

/** The simulated provider-side search for the user's words, or undefined when the corpus has nothing on them. */
export function searchNatively(query: string): NativeSearch | undefined {
  const pages = searchCorpus(query, PAGES).map(({ page }) => page);
  const best = pages[0];
  return best ? { query, pages, opening: OPENING, sentence: firstSentence(best) } : undefined;
}

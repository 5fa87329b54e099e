import { matchesDomainRule } from '../../plugins/shared/domain-rules.js';
import { overlapScores } from '../rerank/overlap-scores.js';

/** A page of the simulated web: what the simulated search engine finds. */
export interface CorpusPage {
  url: string;
  title: string;
  publishedDate: string;
  text: string;
}

/**
 * The simulated search engine's small web: fixed pages on reserved example
 * domains, so answers are the same on every run and never point anywhere real.
 */
export const SEARCH_CORPUS: readonly CorpusPage[] = [
  {
    url: 'https://science.example.org/moon/distance',
    title: 'How far away is the Moon?',
    publishedDate: '2025-03-02T00:00:00.000Z',
    text: 'The Moon orbits Earth at an average distance of 384,400 kilometres. Its orbit is elliptical, so the distance varies between about 363,300 km at perigee and 405,500 km at apogee.',
  },
  {
    url: 'https://news.example.com/space/artemis-moon-landing',
    title: 'Artemis crew prepares for Moon landing',
    publishedDate: '2026-06-14T00:00:00.000Z',
    text: 'The Artemis mission plans to land astronauts near the lunar south pole. The crew trained for months to explore the Moon and collect samples of water ice.',
  },
  {
    url: 'https://blog.example.net/mars/rovers',
    title: 'A short history of Mars rovers',
    publishedDate: '2024-11-20T00:00:00.000Z',
    text: 'From Sojourner to Perseverance, rovers have explored Mars for decades, studying rocks, weather and signs of ancient water on the red planet.',
  },
  {
    url: 'https://docs.example.com/typescript/generics',
    title: 'Generics in TypeScript',
    publishedDate: '2025-08-01T00:00:00.000Z',
    text: 'Generics let a TypeScript function or type work over many types while keeping type safety. A generic parameter is written in angle brackets.',
  },
  {
    url: 'https://weather.example.org/paris/today',
    title: 'Paris weather today',
    publishedDate: '2026-11-21T00:00:00.000Z',
    text: 'Paris weather today: light rain in the morning, clearing in the afternoon, with a high of 12 degrees Celsius.',
  },
  {
    url: 'https://recipes.example.com/bread/sourdough',
    title: 'Sourdough bread for beginners',
    publishedDate: '2023-05-09T00:00:00.000Z',
    text: 'Sourdough bread needs flour, water, salt and an active starter. Let the dough rise slowly overnight for a tangy flavour.',
  },
];

/**
 * The pages that share words with the query, most shared first (word
 * overlap, as the simulated rerankers score), inside the domain lists.
 */
export function searchCorpus(
  query: string,
  maxResults: number,
  domains: { includeDomains?: readonly string[]; excludeDomains?: readonly string[] } = {},
): { page: CorpusPage; score: number }[] {
  const pages = SEARCH_CORPUS.filter((page) => {
    const url = new URL(page.url);
    if (domains.includeDomains?.length && !domains.includeDomains.some((rule) => matchesDomainRule(url, rule))) return false;
    return !domains.excludeDomains?.some((rule) => matchesDomainRule(url, rule));
  });
  return overlapScores(
    query,
    pages.map((page) => `${page.title} ${page.text}`),
  )
    .filter((score) => score.relevance_score > 0)
    .slice(0, maxResults)
    .map(({ index, relevance_score }) => ({ page: pages[index] as CorpusPage, score: relevance_score }));
}

/** The first sentence of a page: what a simulated model quotes from it. */
export const firstSentence = (page: CorpusPage) => /^.*?[.!?](\s|$)/.exec(page.text)?.[0].trim() ?? page.text;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchQuery } from '../../protocol/search-engine.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { type Simulator, startSimulator } from '../../sim/server.js';
import { exaSearchBody, exaSearchEngine, readExaResults } from './exa-search.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

const QUERY: SearchQuery = { query: 'distance to the moon', maxResults: 5, maxCharacters: 1_000 };
const signal = () => new AbortController().signal;

describe('exaSearchBody', () => {
  it('asks Exa for text contents, with the domain filters and an Exa mode only', () => {
    expect(exaSearchBody({ ...QUERY, includeDomains: ['example.org'], mode: 'deep' })).toEqual({
      query: 'distance to the moon',
      type: 'deep',
      numResults: 5,
      includeDomains: ['example.org'],
      contents: { text: { maxCharacters: 1_000 } },
    });
    expect(exaSearchBody({ ...QUERY, mode: 'turbo' }).type).toBe('auto');
  });
});

describe('readExaResults', () => {
  it('reads url, title, text and date, and refuses a body without results', () => {
    expect(
      readExaResults({ results: [{ url: 'https://a.test/', title: 'A', text: 'x', publishedDate: '2025-01-01' }, { title: 'no url' }] }),
    ).toEqual([{ url: 'https://a.test/', title: 'A', content: 'x', publishedDate: '2025-01-01' }]);
    expect(readExaResults({ error: 'nope' })).toBeUndefined();
  });
});

describe('exaSearchEngine against the simulator', () => {
  const engine = (apiKey = 'exa-test-key') => exaSearchEngine({ baseUrl: sim.url, apiKey, timeoutMs: 5_000 });

  it('finds the relevant pages, most relevant first', async () => {
    const results = await engine().search(QUERY, signal());
    expect(results[0]).toMatchObject({ url: 'https://science.example.org/moon/distance', title: 'How far away is the Moon?' });
    expect(results[0]?.content).toContain('384,400 kilometres');
    expect(results.length).toBeLessThanOrEqual(5);
  });

  it('applies numResults, domain filters and maxCharacters', async () => {
    const results = await engine().search(
      { ...QUERY, maxResults: 1, excludeDomains: ['science.example.org'], maxCharacters: 20 },
      signal(),
    );
    expect(results).toHaveLength(1);
    expect(results[0]?.url).toBe('https://news.example.com/space/artemis-moon-landing');
    expect(results[0]?.content).toHaveLength(20);
  });

  it('fails with the provider’s message when the key is missing', async () => {
    const error = await engine('')
      .search(QUERY, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ failure: 'status', message: 'upstream answered 401: Missing API key: pass it in the x-api-key header' });
  });
});

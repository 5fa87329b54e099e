import { describe, expect, it, vi } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import { GatewayError } from '../../protocol/gateway-error.js';
import type { SearchEngine } from '../../protocol/search-engine.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { searchTheWeb, type WebPluginFields } from './web-search-stage.js';

const clock = () => new Date('2026-11-21T12:00:00Z');
const signal = new AbortController().signal;
const QUESTION: ChatRequest = { messages: [{ role: 'user', content: 'moon distance' }], plugins: [{ id: 'web' }] };
/** The web search of QUESTION with these plugin fields. */
const search = (fields: WebPluginFields, engines: Parameters<typeof searchTheWeb>[2], request = QUESTION) =>
  searchTheWeb(request, fields, engines, clock, signal);
const engine = (search: SearchEngine['search']): SearchEngine => ({ name: 'exa', search: vi.fn(search) });
const RESULTS = [
  { url: 'https://science.example.org/moon', title: 'Moon', content: 'far' },
  { url: 'https://spam.example.com/moon', title: 'Spam', content: 'buy' },
];

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('searchTheWeb', () => {
  it('asks the engine with the plugin’s fields and the defaults, keeps results inside the domain lists, and uses search_prompt', async () => {
    const exa = engine(async () => RESULTS);
    const { request, results, entry } = await search(
      { max_results: 3, exclude_domains: ['spam.example.com'], mode: 'fast', search_prompt: 'Sources:' },
      { external: exa, native: false },
    );
    expect(exa.search).toHaveBeenCalledWith(
      {
        query: 'moon distance',
        maxResults: 3,
        includeDomains: undefined,
        excludeDomains: ['spam.example.com'],
        maxCharacters: 1_500,
        mode: 'fast',
      },
      signal,
    );
    expect(results).toEqual([RESULTS[0]]);
    expect(request.messages[0]).toEqual({ role: 'system', content: 'Sources:\n\n[1] Moon\nURL: https://science.example.org/moon\nfar' });
    expect(entry).toEqual({
      type: 'plugin',
      name: 'web',
      summary: '1 result added to the prompt',
      data: { engine: 'exa', query: 'moon distance', results: [{ url: 'https://science.example.org/moon', title: 'Moon' }] },
    });
  });

  it('dates the default prompt with the clock', async () => {
    const { request } = await search({}, { external: engine(async () => RESULTS), native: false });
    expect(request.messages[0]?.content).toMatch(/^A web search was conducted on 2026-11-21\./);
  });

  it('is a 502 naming the engine when the search fails', async () => {
    const error = await failure(
      search(
        {},
        {
          external: engine(async () => {
            throw new UpstreamError('status', 'upstream answered 401: Invalid API key', { status: 401 });
          }),
          native: false,
        },
      ),
    );
    expect(error).toMatchObject({
      statusCode: 502,
      message: 'Web search (exa) failed: upstream answered 401: Invalid API key',
      metadata: { engine: 'exa' },
    });
  });

  it('is a 400 when no search API is configured, or for an engine without an adapter', async () => {
    expect((await failure(search({}, { external: undefined, native: false }))).message).toBe(
      'plugins web engine "exa" is not available on this gateway: no search API is configured (set EXA_API_KEY or web_search.exa in the config file)',
    );
    expect((await failure(search({ engine: 'firecrawl' }, { external: engine(async () => []), native: false }))).statusCode).toBe(400);
  });

  it('records a skip when there is nothing to search for', async () => {
    const { entry } = await search(
      {},
      { external: engine(async () => []), native: false },
      { messages: [{ role: 'system', content: 's' }] },
    );
    expect(entry).toMatchObject({ summary: 'skipped: no user message text to search for', data: { skipped: true } });
  });

  it('asks the provider to search when every planned endpoint can, with max_uses, domains and location', async () => {
    const exa = engine(async () => RESULTS);
    const location = { type: 'approximate' as const, city: 'Paris' };
    const { request, entry } = await search(
      { max_uses: 2, include_domains: ['a.example'], user_location: location },
      { external: exa, native: true },
    );
    expect(request.web_search_options).toEqual({ max_uses: 2, allowed_domains: ['a.example'], user_location: location });
    expect(request.messages).toHaveLength(1);
    expect(entry).toMatchObject({ summary: 'native search by the provider', data: { engine: 'native', max_uses: 2 } });
    expect(exa.search).not.toHaveBeenCalled();
  });

  it('uses the search API when asked for exa, and refuses native where an endpoint cannot search', async () => {
    const { request } = await search({ engine: 'exa' }, { external: engine(async () => RESULTS), native: true });
    expect(request.web_search_options).toBeUndefined();
    expect((await failure(search({ engine: 'native' }, { external: engine(async () => RESULTS), native: false }))).message).toBe(
      'plugins web engine "native" is not available on this gateway: a planned endpoint has no search of its own; use "exa"',
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { SearchEngine, SearchQuery } from '../../protocol/search-engine.js';
import { noInnerCalls } from '../server-tools/no-inner-calls.testing.js';
import { WEB_SEARCH_TOOL_MAX_USES, webSearchServerTool } from './web-search-tool.js';

const asked: SearchQuery[] = [];
const engine: SearchEngine = {
  name: 'exa',
  search: async (query) => {
    asked.push(query);
    return [
      { url: 'https://science.example.org/moon', title: 'Moon', content: '384,400 km', publishedDate: '2025-03-02T00:00:00.000Z' },
      { url: 'https://blocked.example.com/moon', title: 'Other', content: 'far' },
    ];
  },
};
const context = (config: Record<string, unknown> = {}, calls = 0) => ({
  config: { id: 'service:web_search', ...config },
  signal: new AbortController().signal,
  calls,
  model: 'm',
  inner: noInnerCalls,
  state: new Map(),
});

describe('webSearchServerTool', () => {
  it('searches, keeps results inside the domain lists, and counts one billed search', async () => {
    asked.length = 0;
    const result = await webSearchServerTool(engine).execute(
      { query: 'moon distance' },
      context({ max_results: 3, excluded_domains: ['blocked.example.com'] }),
    );
    expect(asked).toEqual([
      { query: 'moon distance', maxResults: 3, includeDomains: undefined, excludeDomains: ['blocked.example.com'], maxCharacters: 1500 },
    ]);
    expect(JSON.parse(result.content)).toEqual({
      query: 'moon distance',
      results: [
        { url: 'https://science.example.org/moon', title: 'Moon', published_date: '2025-03-02T00:00:00.000Z', content: '384,400 km' },
      ],
    });
    expect(result).toMatchObject({ webSearches: 1, data: { engine: 'exa', results: 1 } });
  });

  it('refuses a call without a query, past max_uses, or without a search API', async () => {
    const tool = webSearchServerTool(engine);
    await expect(tool.execute({}, context())).rejects.toThrow('"query" string');
    await expect(tool.execute({ query: 'x' }, context({}, WEB_SEARCH_TOOL_MAX_USES))).rejects.toThrow(
      `at most ${WEB_SEARCH_TOOL_MAX_USES} times`,
    );
    await expect(tool.execute({ query: 'x' }, context({ max_uses: 1 }, 1))).rejects.toThrow('at most 1 times');
    await expect(webSearchServerTool(undefined).execute({ query: 'x' }, context())).rejects.toThrow('no search API');
  });
});

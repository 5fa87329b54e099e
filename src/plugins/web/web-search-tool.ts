import type { FunctionTool } from '../../protocol/chat.js';
import type { SearchEngine } from '../../protocol/search-engine.js';
import type { ServerTool } from '../server-tools/server-tool.js';
import { WEB_SEARCH_DEFAULTS, withinDomains } from './web-search-stage.js';

/** A `service:web_search` tool's parameters (api/chat/server-tool-schemas.ts), as validated. */
export interface WebSearchToolFields {
  engine?: 'auto' | 'exa';
  max_results?: number;
  max_uses?: number;
  allowed_domains?: string[];
  excluded_domains?: string[];
}

/** Searches one request may make when max_uses does not say. */
export const WEB_SEARCH_TOOL_MAX_USES = 10;

export const WEB_SEARCH_FUNCTION: FunctionTool = {
  type: 'function',
  function: {
    name: 'web_search',
    description:
      'Search the web for current information. Returns the most relevant pages, each with its URL, title, date and an excerpt of its text.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
};

/**
 * The `service:web_search` server tool (fusion's panelists have it too): the
 * model calls `web_search` with a query, the gateway asks its search API
 * (Exa) and gives back the results. Each search that ran counts in
 * usage.server_tool_use_details.web_search_requests and is billed at the
 * endpoint's `web_search` price. A search past max_uses, a failed one, or
 * no search API is an error result the model reads.
 */
export function webSearchServerTool(search: SearchEngine | undefined): ServerTool {
  return {
    name: WEB_SEARCH_FUNCTION.function.name,
    type: 'service:web_search',
    definition: () => WEB_SEARCH_FUNCTION,
    async execute(args, { config, signal, calls }) {
      const fields = config as WebSearchToolFields;
      const query = (args as { query?: unknown } | null)?.query;
      if (typeof query !== 'string' || query.trim() === '') throw new Error('the arguments must be a JSON object with a "query" string');
      const maxUses = fields.max_uses ?? WEB_SEARCH_TOOL_MAX_USES;
      if (calls >= maxUses) throw new Error(`web_search may be used at most ${maxUses} times in one request (max_uses)`);
      if (!search) throw new Error('this gateway has no search API configured');
      const domains = { include_domains: fields.allowed_domains, exclude_domains: fields.excluded_domains };
      const found = await search.search(
        {
          query,
          maxResults: fields.max_results ?? WEB_SEARCH_DEFAULTS.maxResults,
          includeDomains: domains.include_domains,
          excludeDomains: domains.exclude_domains,
          maxCharacters: WEB_SEARCH_DEFAULTS.maxCharacters,
        },
        signal,
      );
      const results = withinDomains(found, domains).map((r) => ({
        url: r.url,
        title: r.title,
        published_date: r.publishedDate ?? null,
        content: r.content,
      }));
      return { content: JSON.stringify({ query, results }), webSearches: 1, data: { engine: search.name, results: results.length } };
    },
  };
}

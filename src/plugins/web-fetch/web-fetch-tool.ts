import type { FunctionTool } from '../../protocol/chat.js';
import { FETCH_LIMITS, type PluginServices } from '../plugin-services.js';
import type { ServerTool } from '../server-tools/server-tool.js';
import { fetchPage } from './fetch-page.js';

/** The web-fetch plugin's fields (reference WebFetchPlugin), as validated. */
export interface WebFetchPluginFields {
  max_uses?: number;
  max_content_tokens?: number;
  allowed_domains?: string[];
  blocked_domains?: string[];
}

export const WEB_FETCH_DEFAULTS = { maxUses: 10, maxContentTokens: 25_000 } as const;
/** The gateway's own ceiling on fetches in one request, whatever max_uses says. */
export const WEB_FETCH_HARD_LIMIT = 50;

/** What the model is offered: one URL in, the page's text out. */
export const WEB_FETCH_FUNCTION: FunctionTool = {
  type: 'function',
  function: {
    name: 'web_fetch',
    description:
      'Fetch the content of a web page or PDF document by its URL and return it as text (with the page title and the final URL after redirects). Use it to read a page the user mentions or a search result.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The http or https URL to fetch.' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
};

/**
 * The web-fetch plugin's server tool (also `service:web_fetch` in `tools`): the model calls `web_fetch` with a URL
 * and gets `{url, status, title, content, truncated}` back as the tool
 * result. Each call goes through the SSRF-safe fetcher with the plugin's
 * domain lists, the page limits of FETCH_LIMITS and max_content_tokens. A
 * refused or failed fetch, and a call past max_uses, is an error result the
 * model reads (the request goes on).
 */
export function webFetchServerTool(services: Pick<PluginServices, 'fetcher' | 'tokens' | 'pdfText'>): ServerTool {
  return {
    name: WEB_FETCH_FUNCTION.function.name,
    type: 'service:web_fetch',
    plugin: 'web-fetch',
    definition: () => WEB_FETCH_FUNCTION,
    async execute(args, { config, signal, calls }) {
      const fields = config as WebFetchPluginFields;
      const url = (args as { url?: unknown } | null)?.url;
      if (typeof url !== 'string' || url === '') throw new Error('the arguments must be a JSON object with a "url" string');
      const maxUses = Math.min(fields.max_uses ?? WEB_FETCH_DEFAULTS.maxUses, WEB_FETCH_HARD_LIMIT);
      if (calls >= maxUses) throw new Error(`web_fetch may be used at most ${maxUses} times in one request (max_uses)`);
      const page = await fetchPage(url, {
        fetcher: services.fetcher,
        tokens: await services.tokens(),
        pdfText: async (bytes) => (await services.pdfText.text(bytes)).text,
        domains: { allowed: fields.allowed_domains, blocked: fields.blocked_domains },
        maxContentTokens: fields.max_content_tokens ?? WEB_FETCH_DEFAULTS.maxContentTokens,
        ...FETCH_LIMITS.page,
        signal,
      });
      return { content: JSON.stringify(page) };
    },
  };
}

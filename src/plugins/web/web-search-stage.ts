import type { Catalog } from '../../catalog/types.js';
import { Errors } from '../../http/errors.js';
import type { ChatRequest, WebSearchOptions } from '../../protocol/chat.js';
import type { SearchEngine, SearchResult } from '../../protocol/search-engine.js';
import { UpstreamError } from '../../protocol/upstream.js';
import type { Clock } from '../../util/clock.js';
import type { PipelineEntry } from '../pipeline-entry.js';
import type { RequestStage } from '../request-stage.js';
import { matchesDomainRule } from '../shared/domain-rules.js';
import { nativeSearchOf } from './native-search-support.js';
import { defaultSearchPrompt, searchQueryOf, searchResultsMessage, withSearchResults } from './search-results-message.js';

/** The web plugin's fields (reference WebSearchPlugin), as validated. */
export interface WebPluginFields {
  engine?: string;
  mode?: string;
  max_results?: number;
  search_prompt?: string;
  include_domains?: string[];
  exclude_domains?: string[];
  max_uses?: number;
  user_location?: WebSearchOptions['user_location'] | null;
}

export const WEB_SEARCH_DEFAULTS = { maxResults: 5, maxCharacters: 1_500 } as const;

/** Keeps only results inside the domain lists, for engines that filter loosely or not at all. */
export function withinDomains(
  results: SearchResult[],
  fields: { include_domains?: readonly string[] | undefined; exclude_domains?: readonly string[] | undefined },
): SearchResult[] {
  return results.filter((result) => {
    let url: URL;
    try {
      url = new URL(result.url);
    } catch {
      return false;
    }
    if (fields.include_domains?.length && !fields.include_domains.some((rule) => matchesDomainRule(url, rule))) return false;
    return !fields.exclude_domains?.some((rule) => matchesDomainRule(url, rule));
  });
}

/**
 * Native search: the provider searches while it answers (OpenAI's search
 * models, Anthropic's web_search tool, Gemini's Google Search grounding) and
 * its citations become the annotations; max_uses, the domain lists and the
 * location go to the providers that take them.
 */
function nativeSearch(request: ChatRequest, fields: WebPluginFields): { request: ChatRequest; entry: PipelineEntry } {
  const options: WebSearchOptions = {
    ...(fields.max_uses !== undefined ? { max_uses: fields.max_uses } : {}),
    ...(fields.include_domains?.length ? { allowed_domains: fields.include_domains } : {}),
    ...(fields.exclude_domains?.length ? { blocked_domains: fields.exclude_domains } : {}),
    ...(fields.user_location ? { user_location: fields.user_location } : {}),
  };
  return {
    request: { ...request, web_search_options: options },
    entry: { type: 'plugin', name: 'web', summary: 'native search by the provider', data: { engine: 'native', ...options } },
  };
}

/**
 * The web plugin. Without an engine it is native search when every planned
 * endpoint has one (see nativeSearchOf), else `exa`. With `exa` it searches
 * for the last user message with the external search API and puts the
 * results before that message with `search_prompt`; the results become the
 * answer's url_citation annotations. `native` where an endpoint has no
 * search, the engines the gateway has no adapter for, and `exa` without a
 * configured API are a 400 naming the engine. A failed search is a 502: the
 * answer would otherwise come without the sources the client asked for.
 */
export async function searchTheWeb(
  request: ChatRequest,
  fields: WebPluginFields,
  engines: { external: SearchEngine | undefined; native: boolean },
  clock: Clock,
  signal: AbortSignal,
): Promise<{ request: ChatRequest; results?: SearchResult[]; entry: PipelineEntry }> {
  const asked = fields.engine;
  if (asked === 'native' || (asked === undefined && engines.native)) {
    if (!engines.native)
      throw Errors.pluginEngineUnavailable(
        'plugins web engine',
        asked ?? 'native',
        'a planned endpoint has no search of its own; use "exa"',
      );
    return nativeSearch(request, fields);
  }
  if (asked !== undefined && asked !== 'exa')
    throw Errors.pluginEngineUnavailable('plugins web engine', asked, 'this gateway has no adapter for it; use "exa" or "native"');
  const engine = engines.external;
  if (!engine)
    throw Errors.pluginEngineUnavailable(
      'plugins web engine',
      asked ?? 'exa',
      'no search API is configured (set EXA_API_KEY or web_search.exa in the config file)',
    );
  const query = searchQueryOf(request.messages);
  const entry = (summary: string, data: Record<string, unknown>): PipelineEntry => ({
    type: 'plugin',
    name: 'web',
    summary,
    data: { engine: engine.name, ...data },
  });
  if (query === undefined) return { request, entry: entry('skipped: no user message text to search for', { skipped: true }) };

  let results: SearchResult[];
  try {
    results = withinDomains(
      await engine.search(
        {
          query,
          maxResults: fields.max_results ?? WEB_SEARCH_DEFAULTS.maxResults,
          includeDomains: fields.include_domains,
          excludeDomains: fields.exclude_domains,
          maxCharacters: WEB_SEARCH_DEFAULTS.maxCharacters,
          mode: fields.mode,
        },
        signal,
      ),
      fields,
    );
  } catch (error) {
    if (error instanceof UpstreamError && error.failure === 'aborted') throw error;
    throw Errors.webSearchFailed({ engine: engine.name }, engine.name, error instanceof Error ? error.message : 'unexpected error');
  }
  const data = { query, results: results.map((r) => ({ url: r.url, title: r.title })) };
  if (results.length === 0) return { request, results, entry: entry('no results', data) };
  const prompt = fields.search_prompt ?? defaultSearchPrompt(clock().toISOString().slice(0, 10));
  return {
    request: withSearchResults(request, searchResultsMessage(results, prompt)),
    results,
    entry: entry(`${results.length} result${results.length === 1 ? '' : 's'} added to the prompt`, data),
  };
}

/** The web plugin's stage: searchTheWeb, with native search when every planned endpoint has it; the results ride on the run for the citations. */
export function webSearchStage(services: { search: SearchEngine | undefined; catalog: Catalog }, clock: Clock): RequestStage<ChatRequest> {
  return {
    name: 'web',
    applies: ({ plugins }) => plugins.has('web'),
    async run({ run, plugins, signal }) {
      const engines = { external: services.search, native: nativeSearchOf(services.catalog, run.attempts) };
      const searched = await searchTheWeb(run.request, plugins.get('web') as WebPluginFields, engines, clock, signal);
      // A search the gateway ran (not the provider's native one) is billed at the endpoint's web_search price.
      const webSearches = searched.results ? 1 : 0;
      return {
        entries: [searched.entry],
        run: {
          ...run,
          request: searched.request,
          ...(searched.results?.length ? { citations: searched.results } : {}),
          ...(webSearches ? { webSearches } : {}),
        },
      };
    },
  };
}

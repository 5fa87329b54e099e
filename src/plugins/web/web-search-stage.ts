import type { ChatRequest } from '../../chat/types.js';
import { Errors } from '../../http/errors.js';
import { UpstreamError } from '../../providers/types.js';
import type { Clock } from '../../util/clock.js';
import { matchesDomainRule } from '../shared/domain-rules.js';
import { activePlugin, type StageEntry } from '../stage-entry.js';
import type { SearchEngine, SearchResult } from './search-engine.js';
import { defaultSearchPrompt, searchQueryOf, searchResultsMessage, withSearchResults } from './search-results-message.js';

/** The web plugin's fields (reference WebSearchPlugin), as validated. */
export interface WebPluginFields {
  engine?: string;
  mode?: string;
  max_results?: number;
  search_prompt?: string;
  include_domains?: string[];
  exclude_domains?: string[];
}

export const WEB_SEARCH_DEFAULTS = { maxResults: 5, maxCharacters: 1_500 } as const;

/** Keeps only results inside the domain lists, for engines that filter loosely or not at all. */
function withinDomains(results: SearchResult[], fields: WebPluginFields): SearchResult[] {
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
 * The web plugin: searches for the last user message with the external
 * search API (engine `exa`, which `auto` means on this gateway) and puts the
 * results before that message with `search_prompt`; the results become the
 * answer's url_citation annotations. `native` and the engines the gateway
 * has no adapter for are a 400 naming the engine; so is a search without a
 * configured API. A failed search is a 502: the answer would otherwise come
 * without the sources the client asked for.
 */
export async function webSearchStage(
  request: ChatRequest,
  engine: SearchEngine | undefined,
  clock: Clock,
  signal: AbortSignal,
): Promise<{ request: ChatRequest; results?: SearchResult[]; entry?: StageEntry }> {
  const plugin = activePlugin(request.plugins, 'web');
  if (!plugin) return { request };
  const fields = plugin as WebPluginFields;
  const asked = fields.engine;
  if (asked !== undefined && asked !== 'exa') {
    throw Errors.pluginEngineUnavailable('plugins web engine', asked, asked === 'native' ? 'native search pass-through is not supported yet; use "exa"' : 'this gateway has no adapter for it; use "exa"');
  }
  if (!engine) throw Errors.pluginEngineUnavailable('plugins web engine', asked ?? 'exa', 'no search API is configured (set EXA_API_KEY or web_search.exa in the config file)');
  const query = searchQueryOf(request.messages);
  const entry = (summary: string, data: Record<string, unknown>): StageEntry => ({ type: 'plugin', name: 'web', summary, data: { engine: engine.name, ...data } });
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

import type { SearchEngine, SearchQuery, SearchResult } from '../../protocol/search-engine.js';
import { readUpstreamAnswer } from '../../providers/shared/read-upstream-body.js';
import { sendUpstreamRequest } from '../../providers/shared/send-upstream-request.js';
import type { ProviderErrorInfo } from '../../providers/shared/upstream-status-error.js';
import { isRecord } from '../../util/is-record.js';

export interface ExaSettings {
  /** e.g. https://api.exa.ai (the simulator serves the same path). */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** Exa's search types that the reference's `mode` names; other modes are another engine's. */
const EXA_TYPES = new Set(['instant', 'fast', 'auto', 'deep-lite', 'deep', 'deep-reasoning']);

/** The body of Exa's `POST /search`, asking for each result's text. */
export function exaSearchBody(query: SearchQuery): Record<string, unknown> {
  return {
    query: query.query,
    type: query.mode !== undefined && EXA_TYPES.has(query.mode) ? query.mode : 'auto',
    numResults: query.maxResults,
    ...(query.includeDomains?.length ? { includeDomains: query.includeDomains } : {}),
    ...(query.excludeDomains?.length ? { excludeDomains: query.excludeDomains } : {}),
    contents: { text: { maxCharacters: query.maxCharacters } },
  };
}

/** Exa's results (`{results: [{url, title, text, publishedDate}]}`), or undefined when the body is not that. */
export function readExaResults(body: unknown): SearchResult[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.results)) return undefined;
  return body.results.flatMap((item): SearchResult[] => {
    if (!isRecord(item) || typeof item.url !== 'string') return [];
    return [
      {
        url: item.url,
        title: typeof item.title === 'string' ? item.title : item.url,
        content:
          typeof item.text === 'string'
            ? item.text
            : Array.isArray(item.highlights)
              ? item.highlights.filter((h) => typeof h === 'string').join(' … ')
              : '',
        ...(typeof item.publishedDate === 'string' ? { publishedDate: item.publishedDate } : {}),
      },
    ];
  });
}

/** Exa's error body: `{"requestId", "error": "…", "tag"}`. */
export function parseExaError(body: unknown): ProviderErrorInfo {
  if (!isRecord(body)) return typeof body === 'string' && body ? { message: body } : {};
  return {
    ...(typeof body.error === 'string' ? { message: body.error } : {}),
    ...(typeof body.tag === 'string' ? { code: body.tag } : {}),
  };
}

/**
 * Exa's search API (`POST /search`, key in `x-api-key`), the engine the
 * reference names for `auto` when the model has no search of its own.
 */
export function exaSearchEngine(settings: ExaSettings): SearchEngine {
  return {
    name: 'exa',
    async search(query, signal) {
      const response = await sendUpstreamRequest({
        url: `${settings.baseUrl.replace(/\/+$/, '')}/search`,
        headers: { 'x-api-key': settings.apiKey },
        body: exaSearchBody(query),
        timeoutMs: settings.timeoutMs,
        context: { signal },
        parseProviderError: parseExaError,
      });
      return readUpstreamAnswer(response, readExaResults, 'search results');
    },
  };
}

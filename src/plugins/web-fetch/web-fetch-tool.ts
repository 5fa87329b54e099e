import type { FunctionTool } from '../../chat/types.js';
import { SafeFetchError } from '../../net/safe-fetch.js';
import { UnreadablePdfError } from '../file-parser/extract-pdf-text.js';
import type { TokenCounter } from '../shared/token-counter.js';
import { fetchPage, UnreadablePageError, type FetchPageOptions } from './fetch-page.js';

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

export const WEB_FETCH_TOOL_NAME = 'web_fetch';

/** What the model is offered: one URL in, the page's text out. */
export const WEB_FETCH_FUNCTION: FunctionTool = {
  type: 'function',
  function: {
    name: WEB_FETCH_TOOL_NAME,
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

export interface WebFetchDependencies extends Pick<FetchPageOptions, 'fetcher' | 'pdfText' | 'maxBytes' | 'timeoutMs'> {
  tokens: () => Promise<TokenCounter>;
}

/** One call's outcome: what goes back to the model, and what the pipeline entry records. */
export interface ToolCallResult {
  content: string;
  ok: boolean;
  record: Record<string, unknown>;
}

/**
 * The web_fetch server tool for one request: counts its uses against
 * max_uses, and answers every call, failed ones included, with a JSON result
 * the model can read (`{url, status, title, content, truncated}` or
 * `{error}`); a failure is the model's to handle, not the request's.
 */
export class WebFetchTool {
  private used = 0;
  private readonly maxUses: number;

  constructor(
    private readonly fields: WebFetchPluginFields,
    private readonly deps: WebFetchDependencies,
  ) {
    this.maxUses = Math.min(fields.max_uses ?? WEB_FETCH_DEFAULTS.maxUses, WEB_FETCH_HARD_LIMIT);
  }

  get uses(): number {
    return this.used;
  }

  async call(argumentsJson: string, signal?: AbortSignal): Promise<ToolCallResult> {
    const url = urlArgument(argumentsJson);
    if (url === undefined) return failure(undefined, 'the arguments must be a JSON object with a "url" string');
    if (this.used >= this.maxUses) return failure(url, `web_fetch may be used at most ${this.maxUses} times in one request (max_uses)`);
    this.used += 1;
    try {
      const page = await fetchPage(url, {
        ...this.deps,
        tokens: await this.deps.tokens(),
        domains: { allowed: this.fields.allowed_domains, blocked: this.fields.blocked_domains },
        maxContentTokens: this.fields.max_content_tokens ?? WEB_FETCH_DEFAULTS.maxContentTokens,
        ...(signal ? { signal } : {}),
      });
      return {
        content: JSON.stringify(page),
        ok: true,
        record: { url, final_url: page.url, status: page.status, truncated: page.truncated, characters: page.content.length },
      };
    } catch (error) {
      if (error instanceof SafeFetchError || error instanceof UnreadablePageError || error instanceof UnreadablePdfError) return failure(url, error.message, error instanceof SafeFetchError ? error.failure : 'unreadable');
      return failure(url, 'the page could not be read', 'unreadable');
    }
  }
}

function urlArgument(argumentsJson: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    const url = (parsed as { url?: unknown } | null)?.url;
    return typeof url === 'string' && url.length > 0 ? url : undefined;
  } catch {
    return undefined;
  }
}

function failure(url: string | undefined, message: string, kind = 'refused'): ToolCallResult {
  return {
    content: JSON.stringify({ ...(url !== undefined ? { url } : {}), error: message }),
    ok: false,
    record: { ...(url !== undefined ? { url } : {}), error: message, failure: kind },
  };
}

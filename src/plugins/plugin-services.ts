import type { PluginSettings } from '../config/plugin-settings.js';
import { publicAddressPolicy } from '../net/address-policy.js';
import type { Resolve } from '../net/guarded-lookup.js';
import { createSafeFetcher, type SafeFetcher } from '../net/safe-fetch.js';
import type { SearchEngine } from '../protocol/search-engine.js';
import { extractPdfText } from './file-parser/extract-pdf-text.js';
import { PdfTextCache } from './file-parser/pdf-text-cache.js';
import { loadTokenCounter, type TokenCounter } from './shared/token-counter.js';
import { exaSearchEngine } from './web/exa-search.js';

/** Limits of one fetch for a model: a page for web-fetch, a file for file-parser. */
export const FETCH_LIMITS = {
  page: { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000 },
  file: { maxBytes: 20 * 1024 * 1024, timeoutMs: 30_000 },
} as const;

/** What the web, web-fetch, file-parser and context-compression plugins share; built once in app.ts. */
export interface PluginServices {
  /** Every outbound fetch a model or a user's URL causes goes through it (SSRF-safe). */
  fetcher: SafeFetcher;
  pdfText: PdfTextCache;
  /** Absent when no search API is configured. */
  search: SearchEngine | undefined;
  tokens: () => Promise<TokenCounter>;
  /** The bytes of a file URL (file-parser), within FETCH_LIMITS.file. */
  download(url: string, signal?: AbortSignal): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function createPluginServices(settings: PluginSettings, options: { resolve?: Resolve } = {}): PluginServices {
  const fetcher = createSafeFetcher({
    policy: publicAddressPolicy(settings.allowPrivateRanges),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  return {
    fetcher,
    pdfText: new PdfTextCache(extractPdfText),
    search: settings.exa ? exaSearchEngine(settings.exa) : undefined,
    tokens: loadTokenCounter,
    async download(url, signal) {
      const response = await fetcher.fetch(url, { ...FETCH_LIMITS.file, ...(signal ? { signal } : {}) });
      if (response.truncated) throw new Error(`the file is larger than ${FETCH_LIMITS.file.maxBytes / 1024 / 1024} MB`);
      if (response.status !== 200) throw new Error(`the server answered ${response.status}`);
      return new Uint8Array(response.body);
    },
    close: () => fetcher.close(),
  };
}

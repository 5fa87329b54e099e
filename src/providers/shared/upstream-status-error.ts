import type { Dispatcher } from 'undici';
import { UpstreamError } from '../../protocol/upstream.js';
import { parseRetryAfterMs } from './parse-retry-after.js';
import type { CappedText } from './read-capped-text.js';
import { excerpt, upstreamBodyLimits } from './upstream-body-limits.js';

/** What a provider's error body says, read by that provider's own parser. */
export interface ProviderErrorInfo {
  message?: string;
  /** The provider's error code or type, e.g. "rate_limit_exceeded". */
  code?: string;
  /** A retry hint in the body itself (Google's RetryInfo), for providers that put it there. */
  retryAfterMs?: number;
}

export type ProviderErrorParser = (body: unknown) => ProviderErrorInfo;

/**
 * The UpstreamError for a non-2xx answer: status, the retry hint, the body
 * (parsed when it is JSON, raw text otherwise) and what the provider's parser
 * makes of it. A hint in the body wins over the headers' because it is the
 * more precise (Google's "34.4s" against whole seconds). A body cut at the
 * error limit is kept as the text read, and the message says so.
 */
export function upstreamStatusError(
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  read: CappedText,
  parseProviderError: ProviderErrorParser,
  now: number = Date.now(),
): UpstreamError {
  const body = read.cut ? read.text : parseJsonOrText(read.text);
  const info = parseProviderError(body);
  const detail = read.cut
    ? ` with an error body larger than the gateway's ${upstreamBodyLimits().maxErrorBytes}-byte limit (UPSTREAM_MAX_ERROR_BYTES), cut there`
    : info.message
      ? `: ${info.message}`
      : '';
  return new UpstreamError('status', `upstream answered ${status}${detail}`, {
    status,
    retryAfterMs: info.retryAfterMs ?? parseRetryAfterMs(headers, now),
    body,
    providerCode: info.code,
  });
}

/**
 * An error event inside a stream, after the 2xx: reported like a status
 * error, without a status. `parsed` is what the provider's parser reads
 * when the body kept is only an excerpt of it; its message is cut to the
 * error limit.
 */
export function midStreamError(body: unknown, parseProviderError: ProviderErrorParser, parsed: unknown = body): UpstreamError {
  const info = parseProviderError(parsed);
  return new UpstreamError(
    'status',
    `upstream failed mid-stream${info.message ? `: ${excerpt(info.message, upstreamBodyLimits().maxErrorBytes)}` : ''}`,
    {
      body,
      providerCode: info.code,
      ...(info.retryAfterMs !== undefined ? { retryAfterMs: info.retryAfterMs } : {}),
    },
  );
}

function parseJsonOrText(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

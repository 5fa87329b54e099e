import type { Dispatcher } from 'undici';
import { UpstreamError } from '../types.js';
import { parseRetryAfterMs } from './parse-retry-after.js';

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
 * more precise (Google's "34.4s" against whole seconds).
 */
export function upstreamStatusError(
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  bodyText: string,
  parseProviderError: ProviderErrorParser,
  now: number = Date.now(),
): UpstreamError {
  const body = parseJsonOrText(bodyText);
  const info = parseProviderError(body);
  return new UpstreamError('status', `upstream answered ${status}${info.message ? `: ${info.message}` : ''}`, {
    status,
    retryAfterMs: info.retryAfterMs ?? parseRetryAfterMs(headers, now),
    body,
    providerCode: info.code,
  });
}

/** An error event inside a stream, after the 2xx: reported like a status error, without a status. */
export function midStreamError(body: unknown, parseProviderError: ProviderErrorParser): UpstreamError {
  const info = parseProviderError(body);
  return new UpstreamError('status', `upstream failed mid-stream${info.message ? `: ${info.message}` : ''}`, {
    body,
    providerCode: info.code,
    ...(info.retryAfterMs !== undefined ? { retryAfterMs: info.retryAfterMs } : {}),
  });
}

function parseJsonOrText(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

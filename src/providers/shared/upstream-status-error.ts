import type { Dispatcher } from 'undici';
import { UpstreamError } from '../types.js';
import { parseRetryAfterMs } from './parse-retry-after.js';

/** What a provider's error body says, read by that provider's own parser. */
export interface ProviderErrorInfo {
  message?: string;
  /** The provider's error code or type, e.g. "rate_limit_exceeded". */
  code?: string;
}

export type ProviderErrorParser = (body: unknown) => ProviderErrorInfo;

/**
 * The UpstreamError for a non-2xx answer: status, the retry hint from the
 * headers, the body (parsed when it is JSON, raw text otherwise) and what the
 * provider's parser makes of it.
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
    retryAfterMs: parseRetryAfterMs(headers, now),
    body,
    providerCode: info.code,
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

import { SafeFetchError, type SafeFetcher } from '../../net/safe-fetch.js';
import { parseRetryAfterMs } from '../../providers/shared/parse-retry-after.js';

/** What an exporter needs: the SSRF-safe fetcher (network.allow_private_ranges) and the bounds of one request. */
export interface ExportContext {
  fetcher: SafeFetcher;
  /** Connecting, sending and reading the answer: a receiver slower than this failed. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Told each answer a receiver gave (its first bytes): what `destinations test` reports. */
  answered?: (answer: { url: string; status: number; body: string }) => void;
}

/** A receiver's answer is read up to this many bytes, then the connection is closed: a 100 MB body costs nothing. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A delivery that failed: `retryable` ones (429, 5xx, 408, timeouts, connections) are tried again after a backoff, the others dead-lettered. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** 401 and 403 are retried too: credentials fixed by a PATCH should not have lost the backlog. */
export const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500 || status === 401 || status === 403;

/** Sends one request of an exporter; resolves with the answer's body on a 2xx, throws a DeliveryError otherwise. */
export async function deliver(
  context: ExportContext,
  url: string,
  request: { method: 'POST' | 'PUT'; headers: Record<string, string>; body: string },
): Promise<string> {
  let answer: Awaited<ReturnType<SafeFetcher['fetch']>>;
  try {
    answer = await context.fetcher.fetch(url, {
      ...request,
      timeoutMs: context.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      maxRedirects: 0,
      ...(context.signal ? { signal: context.signal } : {}),
    });
  } catch (error) {
    if (error instanceof SafeFetchError)
      throw new DeliveryError(
        `${url}: ${error.message}`,
        error.failure === 'timeout' || error.failure === 'connection' || error.failure === 'aborted',
      );
    throw error;
  }
  const body = answer.body.toString('utf8');
  context.answered?.({ url, status: answer.status, body: body.slice(0, 1000) });
  if (answer.status >= 200 && answer.status < 300) return body;
  const retryAfter = parseRetryAfterMs(answer.headers);
  throw new DeliveryError(`${url} answered ${answer.status}: ${body.slice(0, 200)}`, retryableStatus(answer.status), retryAfter);
}

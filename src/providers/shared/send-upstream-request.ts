import { request, type Dispatcher } from 'undici';
import type { AdapterContext, UpstreamError } from '../types.js';
import { classifyTransportFailure } from './classify-transport-failure.js';
import { poolFor } from './connection-pools.js';
import { upstreamStatusError, type ProviderErrorParser } from './upstream-status-error.js';

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON with a POST; without one the request is a GET. */
  body?: unknown;
  timeoutMs: number;
  context: Pick<AdapterContext, 'signal' | 'dispatcher'>;
  parseProviderError: ProviderErrorParser;
}

/** A 2xx answer whose body is still to be read, with the deadline still running. */
export interface UpstreamResponse {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Dispatcher.ResponseData['body'];
  /** Stops the deadline: call it once the whole answer, or a stream's first event, has arrived. */
  stopDeadline(): void;
  /** The UpstreamError for anything thrown while reading the body (stops the deadline too). */
  classify(error: unknown): UpstreamError;
}

/**
 * POSTs JSON to an upstream (or GETs, without a body) through the caller's dispatcher or the shared
 * keep-alive pool of its origin. One deadline (timeoutMs) covers the answer
 * from connecting until the caller stops it; it and the caller's signal both
 * abort the request, which closes the upstream socket. A non-2xx answer is
 * read and rejected as a 'status' UpstreamError.
 */
export async function sendUpstreamRequest(call: UpstreamRequest): Promise<UpstreamResponse> {
  // A timer rather than AbortSignal.timeout, because a stream stops it at its first event.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), call.timeoutMs);
  const stopDeadline = () => clearTimeout(timer);
  const classify = (error: unknown) => {
    stopDeadline();
    return classifyTransportFailure(error, { aborted: call.context.signal.aborted, timedOut: deadline.signal.aborted });
  };

  let response: Dispatcher.ResponseData;
  try {
    response = await request(call.url, {
      ...(call.body === undefined
        ? { method: 'GET', headers: call.headers }
        : { method: 'POST', headers: { 'content-type': 'application/json', ...call.headers }, body: JSON.stringify(call.body) }),
      signal: AbortSignal.any([call.context.signal, deadline.signal]),
      dispatcher: call.context.dispatcher ?? poolFor(new URL(call.url).origin),
    });
  } catch (error) {
    throw classify(error);
  }

  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode >= 300) {
    let text: string;
    try {
      text = await body.text();
    } catch (error) {
      throw classify(error);
    }
    stopDeadline();
    throw upstreamStatusError(statusCode, headers, text, call.parseProviderError);
  }
  return { statusCode, headers, body, stopDeadline, classify };
}

import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import type { AdapterContext } from '../../protocol/adapters.js';
import type { UpstreamError } from '../../protocol/upstream.js';
import { classifyTransportFailure } from './classify-transport-failure.js';
import { poolFor } from './connection-pools.js';
import { type CappedText, readCappedText } from './read-capped-text.js';
import { upstreamBodyLimits } from './upstream-body-limits.js';
import { type ProviderErrorParser, upstreamStatusError } from './upstream-status-error.js';

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON with a POST; without one (or a form) the request is a GET. */
  body?: unknown;
  /** Sent as multipart/form-data with a POST instead of JSON (an audio upload). */
  form?: FormData;
  timeoutMs: number;
  context: Pick<AdapterContext, 'signal' | 'dispatcher'>;
  parseProviderError: ProviderErrorParser;
  /** Redirects a GET follows (a file download that moves to storage); none by default. */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
 * POSTs JSON or a form to an upstream (or GETs, without a body) through the caller's dispatcher or the shared
 * keep-alive pool of its origin. One deadline (timeoutMs) covers the answer
 * from connecting until the caller stops it; it and the caller's signal both
 * abort the request, which closes the upstream socket. A non-2xx answer is
 * read (up to the error limit) and rejected as a 'status' UpstreamError.
 */
export async function sendUpstreamRequest(call: UpstreamRequest): Promise<UpstreamResponse> {
  // Serialized before the call, outside its failure handling: a body that cannot be serialized
  // is the gateway's failure, never one of the upstream's connection.
  const payload = call.form !== undefined ? await encodeForm(call.form) : call.body === undefined ? undefined : jsonPayload(call.body);
  // One switch per call, thrown by the caller's signal or by a timer (not AbortSignal.timeout,
  // because a stream stops it at its first event).
  const abort = new AbortSwitch();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, call.timeoutMs);
  const callerSignal = call.context.signal;
  const onCallerAbort = () => abort.abort();
  if (callerSignal.aborted) abort.abort();
  else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  const stopDeadline = () => clearTimeout(timer);
  // The caller's signal outlives this call (a run makes several): its listener goes when the call is over.
  const release = () => {
    stopDeadline();
    callerSignal.removeEventListener('abort', onCallerAbort);
  };
  const classify = (error: unknown) => {
    release();
    return classifyTransportFailure(error, { aborted: callerSignal.aborted, timedOut });
  };

  let response: Dispatcher.ResponseData;
  try {
    response = await requestFollowing(call, payload, abort);
  } catch (error) {
    throw classify(error);
  }

  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode >= 300) {
    let read: CappedText;
    try {
      read = await readCappedText(body, headers, upstreamBodyLimits().maxErrorBytes);
    } catch (error) {
      throw classify(error);
    }
    release();
    throw upstreamStatusError(statusCode, headers, read, call.parseProviderError);
  }
  body.once('close', release);
  return { statusCode, headers, body, stopDeadline, classify };
}

/** A POST's body and its content type. */
interface Payload {
  contentType: string;
  data: string | Buffer;
}

const jsonPayload = (body: unknown): Payload => ({ contentType: 'application/json', data: JSON.stringify(body) });

/** A form encoded by the platform's own multipart encoder (its boundary in the content type), as one buffer. */
async function encodeForm(form: FormData): Promise<Payload> {
  const encoded = new Response(form);
  const data = Buffer.from(await encoded.arrayBuffer());
  return { contentType: encoded.headers.get('content-type') ?? 'multipart/form-data', data };
}

/**
 * What undici takes as a request's signal: an EventEmitter with `aborted`.
 * Cheaper to make per call than an AbortController, whose signal the
 * benchmark's profile showed among the costliest objects of a request.
 */
class AbortSwitch extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/**
 * The answer to the call, after up to `maxRedirects` redirects of a GET. The
 * call's headers carry the provider's credentials, so they go to its own
 * origin only: a redirect to another origin (a signed storage URL) is
 * followed without them.
 */
async function requestFollowing(
  call: UpstreamRequest,
  payload: Payload | undefined,
  signal: AbortSwitch,
): Promise<Dispatcher.ResponseData> {
  let url = new URL(call.url);
  let headers = call.headers;
  for (let hops = 0; ; hops++) {
    const dispatcher = (hops === 0 ? call.context.dispatcher : undefined) ?? poolFor(url.origin);
    // The dispatcher's own request(), not undici's top-level one, which would parse the URL again.
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      ...(payload === undefined
        ? { method: 'GET', headers }
        : { method: 'POST', headers: { 'content-type': payload.contentType, ...headers }, body: payload.data }),
      signal,
    });
    const location = response.headers.location;
    if (payload !== undefined || hops >= (call.maxRedirects ?? 0) || !REDIRECTS.has(response.statusCode) || typeof location !== 'string') {
      return response;
    }
    await response.body.dump();
    const next = new URL(location, url);
    if (next.origin !== url.origin) headers = {};
    url = next;
  }
}

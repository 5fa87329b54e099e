import { isIP } from 'node:net';
import { Agent, type Dispatcher, request } from 'undici';
import { type AddressPolicy, publicAddressPolicy } from './address-policy.js';
import { BlockedAddressError, guardedLookup, type Resolve, systemResolve } from './guarded-lookup.js';
import { readCapped } from './read-capped.js';

export interface SafeFetchRequest {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** One deadline for the whole fetch: connecting, every redirect and reading the body. */
  timeoutMs: number;
  /** The body is cut at this many bytes (`truncated` says so) and the connection closed. */
  maxBytes: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Judges the first URL and every redirect target (domain allow/deny lists): why not, or undefined. */
  checkUrl?: (url: URL) => string | undefined;
  signal?: AbortSignal;
}

export interface SafeFetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** The URLs that redirected, in order. */
  redirects: string[];
}

export type SafeFetchFailure = 'invalid_url' | 'blocked' | 'too_many_redirects' | 'timeout' | 'connection' | 'aborted';

export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  constructor(
    readonly failure: SafeFetchFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetcher {
  fetch(url: string, request: SafeFetchRequest): Promise<SafeFetchResult>;
  close(): Promise<void>;
}

export interface SafeFetcherOptions {
  /** Default: public unicast addresses only. */
  policy?: AddressPolicy;
  resolve?: Resolve;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 5;

/**
 * HTTP(S) fetches on behalf of a model or an agent, which must never reach
 * the gateway's own network: every connection's address is checked after DNS
 * resolution (guarded-lookup.ts), literal IPs before connecting, and every
 * redirect is followed by hand so its target passes the same checks. A
 * cross-origin redirect drops the caller's headers, which may carry secrets.
 */
export function createSafeFetcher(options: SafeFetcherOptions = {}): SafeFetcher {
  const policy = options.policy ?? publicAddressPolicy();
  const agent = new Agent({ connect: { lookup: guardedLookup(options.resolve ?? systemResolve, policy) } });

  return {
    async fetch(start, call) {
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), call.timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, deadline.signal]) : deadline.signal;
      const fail = (error: unknown): SafeFetchError => {
        if (error instanceof SafeFetchError) return error;
        if (deadline.signal.aborted) return new SafeFetchError('timeout', `no complete answer within ${call.timeoutMs} ms`);
        if (call.signal?.aborted) return new SafeFetchError('aborted', 'the fetch was cancelled');
        const blocked = findBlocked(error);
        if (blocked) return new SafeFetchError('blocked', blocked.message);
        return new SafeFetchError('connection', error instanceof Error ? error.message : String(error));
      };
      try {
        let url = checkedUrl(start, call.checkUrl, policy);
        let method = call.method ?? 'GET';
        let body = call.body;
        let headers = call.headers ?? {};
        const redirects: string[] = [];
        for (;;) {
          const response = await request(url, { method, headers, ...(body !== undefined ? { body } : {}), signal, dispatcher: agent });
          const location = response.headers.location;
          if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
            response.body.resume();
            if (redirects.length >= (call.maxRedirects ?? DEFAULT_MAX_REDIRECTS))
              throw new SafeFetchError('too_many_redirects', `more than ${call.maxRedirects ?? DEFAULT_MAX_REDIRECTS} redirects`);
            redirects.push(url.href);
            const next = checkedUrl(new URL(location, url).href, call.checkUrl, policy);
            if (next.origin !== url.origin) headers = {};
            if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
              method = 'GET';
              body = undefined;
            }
            url = next;
            continue;
          }
          const read = await readCapped(response.body, call.maxBytes);
          return { url: url.href, status: response.statusCode, headers: flatHeaders(response.headers), ...read, redirects };
        }
      } catch (error) {
        throw fail(error);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => agent.close(),
  };
}

/** Parses and judges a URL: http(s) only, the caller's rules, and a literal IP host against the policy. */
function checkedUrl(href: string, checkUrl: SafeFetchRequest['checkUrl'], policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new SafeFetchError('invalid_url', `${href} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SafeFetchError('invalid_url', `${url.protocol} URLs are not fetched`);
  if (url.username || url.password) throw new SafeFetchError('invalid_url', 'URLs with credentials are not fetched');
  const refusedByCaller = checkUrl?.(url);
  if (refusedByCaller) throw new SafeFetchError('blocked', refusedByCaller);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host)) {
    const refused = policy(host);
    if (refused) throw new SafeFetchError('blocked', `${url.host} is blocked: ${refused}`);
  }
  return url;
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** undici wraps connect failures; the lookup's refusal may sit in a cause chain. */
function findBlocked(error: unknown): BlockedAddressError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof BlockedAddressError) return e;
  return undefined;
}

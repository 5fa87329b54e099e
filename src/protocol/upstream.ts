/** Where an adapter calls (an endpoint the catalog resolved) and how a call to it fails. */
import type { ServiceTier } from './routing-vocabulary.js';

/** One provider endpoint of a model, as the catalog resolved it: where and how to call it. */
export interface UpstreamTarget {
  /** Provider slug, e.g. "openai" or "acme". */
  providerId: string;
  /** Adapter kind, e.g. "openai". */
  kind: string;
  /** Base URL including the version segment, e.g. "https://api.openai.com/v1". */
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** The model id the upstream knows. */
  upstreamModel: string;
  /** Request parameters the endpoint accepts; others are dropped. Undefined means "all". */
  supportedParameters?: readonly string[];
  /** The service tiers the endpoint can be asked for; the request's tier goes upstream only when listed. */
  supportedServiceTiers?: readonly ServiceTier[];
  /** The endpoint's largest completion, for protocols that require a limit on every request (Anthropic's max_tokens). */
  maxCompletionTokens?: number;
  /** Limit for the whole upstream request, and for the first byte of a stream. */
  timeoutMs: number;
}

export type UpstreamFailure =
  | 'connection' // could not connect, or the connection broke
  | 'timeout' // no answer (or no first byte) within timeoutMs
  | 'status' // the upstream answered with a non-2xx HTTP status
  | 'malformed' // the upstream answered with something that is not its protocol
  | 'aborted' // our side cancelled (client went away)
  | 'local'; // the gateway could not make the call (no file descriptor or memory left): nothing about the upstream

/** Anything that went wrong talking to an upstream, with what the executor needs to decide on a retry. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly failure: UpstreamFailure,
    message: string,
    readonly details: {
      status?: number;
      /** From Retry-After (seconds or HTTP date) or the provider's own retry hint. */
      retryAfterMs?: number;
      /** The upstream's error body, parsed when it is JSON, raw text otherwise. */
      body?: unknown;
      /** The provider's own error code/type (e.g. "rate_limit_exceeded", "overloaded_error"). */
      providerCode?: string;
    } = {},
  ) {
    super(message);
  }
}

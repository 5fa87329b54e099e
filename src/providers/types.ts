import type { Dispatcher } from 'undici';
import type { ServiceTier } from '../catalog/routing-vocabulary.js';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from '../chat/types.js';
import type { RerankRequest, UpstreamRerank } from '../rerank/types.js';

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

export interface AdapterContext {
  signal: AbortSignal;
  /** Connection pool (keep-alive) to use; adapters fall back to undici's global one. */
  dispatcher?: Dispatcher;
  /** A stable keyed hash of the end user's `user` value: never the raw value. */
  endUserId?: string;
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

export interface ChatAdapter {
  readonly kind: string;
  /** The body sent upstream for this request (also what debug.echo_upstream_body shows, minus credentials). */
  buildRequestBody(request: ChatRequest, target: UpstreamTarget, options: { stream: boolean; endUserId?: string }): unknown;
  /** Non-streaming call; resolves to the canonical response or rejects with UpstreamError. */
  complete(request: ChatRequest, target: UpstreamTarget, context: AdapterContext): Promise<ChatCompletion>;
  /**
   * Streaming call. Resolves once the upstream accepted the request (2xx and
   * stream headers); rejects with UpstreamError otherwise. The iterable yields
   * canonical chunks as they arrive and throws UpstreamError on a mid-stream
   * failure. Usage must be asked of the upstream even when the client did not.
   */
  stream(request: ChatRequest, target: UpstreamTarget, context: AdapterContext): Promise<AsyncIterable<ChatCompletionChunk>>;
}

export interface RerankAdapter {
  readonly kind: string;
  /** Resolves to the provider's scores and reported usage, or rejects with UpstreamError. */
  rerank(request: RerankRequest, target: UpstreamTarget, context: AdapterContext): Promise<UpstreamRerank>;
}

/** A moderation verdict on one input: flagged or not, the categories that flagged it, and every category's score. */
export interface ModerationVerdict {
  flagged: boolean;
  categories: string[];
  scores: Record<string, number>;
}

export interface ModerationAdapter {
  readonly kind: string;
  /** One verdict per input, in order; rejects with UpstreamError. */
  moderate(inputs: readonly string[], target: UpstreamTarget, context: AdapterContext): Promise<ModerationVerdict[]>;
}

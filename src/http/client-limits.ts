import type { ServerOptions } from 'node:http';

/** What a client may send and how long it may take to send it (docs/operations.md, "Limits and timeouts"). */
export interface ClientLimits {
  /** A request's headers must have arrived this long after its first byte. */
  headersTimeoutMs: number;
  /** Then its body gets this much more: the whole request must have arrived within headers + body time. */
  bodyTimeoutMs: number;
  /** Largest request body, in bytes. */
  bodyLimit: number;
  /** Largest audio file POST /audio/transcriptions takes, in bytes (OpenAI's 25 MiB by default). */
  transcriptionMaxBytes: number;
  /** Deepest nesting of objects and arrays in a JSON body (the body itself is level 1). */
  maxJsonDepth: number;
  /** Open client connections at most; Node closes the ones beyond at once. Undefined: no cap. */
  maxConnections: number | undefined;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  bodyLimit: 10 * 1024 * 1024,
  transcriptionMaxBytes: 25 * 1024 * 1024,
  maxJsonDepth: 64,
  maxConnections: undefined,
};

/**
 * Node's own request timers, which Fastify turns off by default (its
 * requestTimeout is 0): headersTimeout for the headers, requestTimeout for
 * the whole request. Node checks them on an interval (30 s by default, which
 * could double a 30 s limit); a tenth of the shorter limit, at most a second,
 * keeps a timeout within a few percent of its setting. The check walks only
 * connections still receiving a request, so it costs nothing per request.
 */
export function requestTimeoutOptions(limits: Pick<ClientLimits, 'headersTimeoutMs' | 'bodyTimeoutMs'>): {
  requestTimeout: number;
  http: ServerOptions;
} {
  const requestTimeout = limits.headersTimeoutMs + limits.bodyTimeoutMs;
  const connectionsCheckingInterval = Math.max(
    10,
    Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs) / 10)),
  );
  return { requestTimeout, http: { headersTimeout: limits.headersTimeoutMs, requestTimeout, connectionsCheckingInterval } };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../accounts/api-key-material.js';
import type { KeyCache } from '../accounts/key-cache.js';
import type { KeyRateLimiter } from '../accounts/key-rate-limiter.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Clock } from '../util/clock.js';
import { Errors } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the request authenticated with (its rate limit and role not checked yet); set by requireKey / requireManagementKey. */
    apiKey: ApiKeyRow | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
/**
 * The web console's session (api/console/session-auth.ts): the hash of the management key a request's
 * session cookie stands for, or undefined when it carries none. It throws when the session has ended, or
 * when an unsafe request lacks the session's CSRF token or comes from another origin.
 */
export type SessionKey = (request: FastifyRequest) => Promise<string | undefined>;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The key a request presents: `Authorization: Bearer <key>`, else
 * `x-api-key: <key>`, the header Anthropic's clients send (accepted on every
 * route, as one key serves them all); undefined when it presents none.
 */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) return BEARER.exec(header)?.[1];
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.trim() !== '' ? apiKey.trim() : undefined;
}

/**
 * The presented key (presentedKey) → the key's record, from memory (KeyCache);
 * without one, the console session's key where the route allows it.
 * Runs at onRequest, before the body is parsed, so an unauthenticated caller
 * learns nothing about its body. With a rate limiter, every authenticated
 * request counts against its key's limit, and one past it is refused with 429.
 */
export function authenticator(keys: KeyCache, clock: Clock, rateLimit?: KeyRateLimiter, sessionKey?: SessionKey) {
  /** The presented key's hash; without one (no Authorization nor x-api-key header), the console session's, where `bySession` allows one. */
  async function keyHash(request: FastifyRequest, bySession: boolean): Promise<string> {
    const presented = presentedKey(request);
    if (presented) return hashApiKey(presented);
    const hash = !request.headers.authorization && bySession && sessionKey ? await sessionKey(request) : undefined;
    if (!hash) throw Errors.missingAuthentication();
    return hash;
  }

  async function authenticate(request: FastifyRequest, reply: FastifyReply, bySession: boolean): Promise<ApiKeyRow> {
    const key = await keys.get(await keyHash(request, bySession));
    if (!key) throw Errors.invalidApiKey();
    if (key.disabled) throw Errors.disabledApiKey();
    if (key.expires_at !== null && Date.parse(key.expires_at) <= clock().getTime()) throw Errors.expiredApiKey();
    // Authenticated from here: a refusal of its rate limit is still the key's (the ledger records it).
    request.apiKey = key;
    const decision = rateLimit ? await rateLimit(key.hash) : undefined;
    if (decision && !decision.allowed) {
      void reply.header('retry-after', String(decision.retryAfterSeconds));
      const { requests_per_key, window_seconds } = decision.settings;
      throw Errors.keyRateLimited({ retry_after_seconds: decision.retryAfterSeconds }, requests_per_key, window_seconds);
    }
    return key;
  }

  return {
    // A console session stands for a management key: it reads what any key may read, and nothing it would pay for.
    async requireKey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      await authenticate(request, reply, SAFE_METHODS.has(request.method));
    },
    /** A change that costs nothing (deleting a file): the console session may make it too, with its CSRF token. */
    async requireKeyForFreeChange(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      await authenticate(request, reply, true);
    },
    async requireManagementKey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const key = await authenticate(request, reply, true);
      if (!key.is_management) throw Errors.managementKeyRequired();
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;

/** The authenticated key of a route that ran requireKey or requireManagementKey. */
export function callerKey(request: FastifyRequest): ApiKeyRow {
  if (!request.apiKey) throw Errors.internal();
  return request.apiKey;
}

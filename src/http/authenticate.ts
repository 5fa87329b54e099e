import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../accounts/api-key-material.js';
import type { KeyCache } from '../accounts/key-cache.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Clock } from '../util/clock.js';
import { Errors } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the request authenticated with; set by requireKey / requireManagementKey. */
    apiKey: ApiKeyRow | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * `Authorization: Bearer <key>` → the key's record, from memory (KeyCache).
 * Runs at onRequest, before the body is parsed, so an unauthenticated caller
 * learns nothing about its body.
 */
export function authenticator(keys: KeyCache, clock: Clock) {
  async function authenticate(request: FastifyRequest): Promise<ApiKeyRow> {
    const header = request.headers.authorization;
    if (!header) throw Errors.missingAuthentication();
    const match = BEARER.exec(header);
    if (!match?.[1]) throw Errors.missingAuthentication();
    const key = await keys.get(hashApiKey(match[1]));
    if (!key) throw Errors.invalidApiKey();
    if (key.disabled) throw Errors.disabledApiKey();
    if (key.expires_at !== null && Date.parse(key.expires_at) <= clock().getTime()) throw Errors.expiredApiKey();
    return key;
  }

  return {
    async requireKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      request.apiKey = await authenticate(request);
    },
    async requireManagementKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const key = await authenticate(request);
      if (!key.is_management) throw Errors.managementKeyRequired();
      request.apiKey = key;
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;

/** The authenticated key of a route that ran requireKey or requireManagementKey. */
export function callerKey(request: FastifyRequest): ApiKeyRow {
  if (!request.apiKey) throw Errors.internal();
  return request.apiKey;
}

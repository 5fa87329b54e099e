import { createHmac } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * The identifier sent upstream for an end user: HMAC-SHA256 of the client's
 * `user` value under a gateway secret, base64url (43 characters, within
 * OpenAI's 64-character limit for `safety_identifier`). Keyed so that an
 * upstream cannot recover the raw value by hashing guesses; stable so that
 * the upstream's per-user abuse isolation and cache bucketing still work.
 */
export function hashEndUser(secret: string, user: string): string {
  return createHmac('sha256', secret).update(user).digest('base64url');
}

/**
 * The end-user identifier an upstream request carries: the keyed hash, and
 * only when the client named an end user (`user`). The gateway's stand-in
 * identity for a request without one (its key's) is for its own ledger: a
 * field the client did not send is not added upstream, where some hosts
 * refuse fields they do not know.
 */
export function upstreamEndUser(request: { user?: string }, endUserId: string | undefined): string | undefined {
  return request.user !== undefined ? endUserId : undefined;
}

/**
 * hashEndUser under one secret, remembering the last `max` users: most
 * requests come from a few keys and users, and an HMAC costs more than a
 * map lookup on the hot path.
 */
export function endUserHasher(secret: string, max = 10_000): (user: string) => string {
  const cache = new LRUCache<string, string>({ max });
  return (user) => {
    let hash = cache.get(user);
    if (hash === undefined) cache.set(user, (hash = hashEndUser(secret, user)));
    return hash;
  };
}

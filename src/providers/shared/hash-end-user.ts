import { createHmac } from 'node:crypto';

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

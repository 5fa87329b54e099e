import { createHash } from 'node:crypto';
import { Errors } from '../../http/errors.js';

/** How long a caller's own Idempotency-Key answers with the intern it created. */
export const HEADER_KEY_WINDOW_MS = 24 * 3_600_000;

/**
 * How long a key derived from the body does. The SDK says the server derives
 * one when the caller sends none, and the SDK itself retries a failed create
 * (5XX, connection errors) for up to an hour (its backoff's maxElapsedTime)
 * without a key: within that hour a retry must not make a second intern. A
 * derived key kept for ever would also merge every later deliberate create of
 * the same body into the first, so it lapses after that hour; a caller making
 * identical interns on purpose sends distinct Idempotency-Keys.
 */
export const BODY_KEY_WINDOW_MS = 3_600_000;

export interface CreateKey {
  source: 'header' | 'body';
  key: string;
  windowMs: number;
}

/** JSON with every object's keys sorted, so the same body sent with its fields in another order is the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const bodyHash = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('hex');

/** The create's key: the Idempotency-Key header (1 to 255 characters, else 400), or one derived from the body's hash. */
export function createKeyOf(header: string | string[] | undefined, hash: string): CreateKey {
  if (header === undefined) return { source: 'body', key: hash, windowMs: BODY_KEY_WINDOW_MS };
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (key.length < 1 || key.length > 255)
    throw Errors.internBadRequest(`the Idempotency-Key header must be 1 to 255 characters long, not ${key.length}`);
  return { source: 'header', key, windowMs: HEADER_KEY_WINDOW_MS };
}

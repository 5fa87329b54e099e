import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie that carries a console session's id. */
export const SESSION_COOKIE = 'mg_console';
/** A session unused this long has ended. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** The latest a session lasts, however busy: a stolen cookie is not good forever. */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** How stale last_seen_at may get before a request moves it: one write per few minutes of use, not one per request. */
export const SESSION_TOUCH_MS = 5 * 60 * 1000;

/** A new session id: 32 random bytes, base64url. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What the table stores of a session id: its SHA-256, hex. */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * The session's CSRF token: derived from its id, so it needs no storage, and useless without the cookie.
 * Another site can send the cookie but cannot read the token (the gateway answers no cross-origin reads).
 */
export function csrfTokenFor(sessionId: string): string {
  return createHmac('sha256', sessionId).update('console csrf').digest('base64url');
}

/** Whether `given` is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(sessionId: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const expected = Buffer.from(csrfTokenFor(sessionId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface SessionTimes {
  last_seen_at: string;
  expires_at: string;
}

/** Whether a session has ended at `now`: idle too long, or past its end. */
export function sessionEnded(session: SessionTimes, now: Date): boolean {
  const at = now.getTime();
  return Date.parse(session.last_seen_at) + SESSION_IDLE_MS <= at || Date.parse(session.expires_at) <= at;
}

/** When an idle session ends: SESSION_IDLE_MS after it was last seen, never past its end. */
export function sessionEndsAt(session: SessionTimes): string {
  const idle = Date.parse(session.last_seen_at) + SESSION_IDLE_MS;
  return new Date(Math.min(idle, Date.parse(session.expires_at))).toISOString();
}

/**
 * Whether an unsafe request's Origin is the gateway's own. Browsers send Origin with every POST, PATCH
 * and DELETE, so its absence is refused too: the console's requests always carry it.
 */
export function sameOrigin(origin: string | undefined, protocol: string, host: string): boolean {
  if (!origin) return false;
  try {
    return new URL(origin).origin === new URL(`${protocol}://${host}`).origin;
  } catch {
    return false;
  }
}

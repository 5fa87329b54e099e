import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  csrfTokenMatches,
  hashSessionId,
  SESSION_COOKIE,
  SESSION_TOUCH_MS,
  sameOrigin,
  sessionEnded,
} from '../../accounts/console-session.js';
import type { SessionKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import {
  type ConsoleSessionRow,
  type ConsoleSessionWithKey,
  deleteConsoleSession,
  findConsoleSession,
  touchConsoleSession,
} from '../../store/repositories/console-sessions.js';
import type { Database } from '../../store/schema.js';
import type { Clock } from '../../util/clock.js';

/** The header an unsafe console request carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The session id of a request's cookie, if it carries one (parsed by @fastify/cookie, registered without its hook). */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const id = request.server.parseCookie(header)[SESSION_COOKIE];
  return id ? id : undefined;
}

/** The scheme the browser used: https behind a proxy that says so too (a lie only drops the client's own cookie). */
export function requestScheme(request: FastifyRequest): string {
  return request.headers['x-forwarded-proto'] === 'https' ? 'https' : request.protocol;
}

/** Refuses an unsafe request that is not the console's own: another origin, or no CSRF token of this session. */
export function checkUnsafeRequest(request: FastifyRequest, sessionId: string | undefined): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (!sameOrigin(request.headers.origin, requestScheme(request), request.host)) {
    throw Errors.consoleRequestForged('its Origin is not this gateway');
  }
  if (sessionId === undefined) return;
  const token = request.headers[CSRF_HEADER];
  if (!csrfTokenMatches(sessionId, typeof token === 'string' ? token : undefined)) {
    throw Errors.consoleRequestForged(`the ${CSRF_HEADER} header does not carry this session's token`);
  }
}

/**
 * Whether the session's key still stands behind it: the key exists, is enabled, and its creator is still a
 * member. Disabling, deleting and removing delete the sessions too (store/repositories); this holds at use as well.
 */
export function sessionKeyStands(session: ConsoleSessionWithKey): boolean {
  if (session.key_disabled === null || session.key_disabled !== 0) return false;
  return session.key_creator_user_id === null || session.creator_member_id !== null;
}

/** The live session of a session id, moving its last use forward; throws when it has ended (and ends it for good when its key no longer stands). */
export async function liveSession(db: Kysely<Database>, clock: Clock, sessionId: string): Promise<ConsoleSessionRow> {
  const now = clock();
  const session = await findConsoleSession(db, hashSessionId(sessionId));
  if (!session || sessionEnded(session, now)) throw Errors.consoleSessionEnded();
  if (!sessionKeyStands(session)) {
    await deleteConsoleSession(db, session.id_hash);
    throw Errors.consoleSessionEnded();
  }
  if (now.getTime() - Date.parse(session.last_seen_at) >= SESSION_TOUCH_MS) {
    session.last_seen_at = now.toISOString();
    await touchConsoleSession(db, session.id_hash, session.last_seen_at);
  }
  return session;
}

/** What authentication asks of a request without an Authorization header (http/authenticate.ts). */
export function consoleSessionKey(db: Kysely<Database>, clock: Clock): SessionKey {
  return async (request) => {
    const sessionId = sessionIdOf(request);
    if (sessionId === undefined) return undefined;
    checkUnsafeRequest(request, sessionId);
    return (await liveSession(db, clock, sessionId)).api_key_hash;
  };
}

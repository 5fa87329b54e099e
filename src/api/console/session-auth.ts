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
import { type ConsoleSessionRow, findConsoleSession, touchConsoleSession } from '../../store/repositories/console-sessions.js';
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

/** The live session of a session id, moving its last use forward; throws when it has ended. */
export async function liveSession(db: Kysely<Database>, clock: Clock, sessionId: string): Promise<ConsoleSessionRow> {
  const now = clock();
  const session = await findConsoleSession(db, hashSessionId(sessionId));
  if (!session || sessionEnded(session, now)) throw Errors.consoleSessionEnded();
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

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../../accounts/api-key-material.js';
import {
  csrfTokenFor,
  hashSessionId,
  newSessionId,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  sessionEndsAt,
} from '../../accounts/console-session.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import {
  type ConsoleSessionRow,
  deleteConsoleSession,
  deleteEndedConsoleSessions,
  findConsoleSession,
  insertConsoleSession,
} from '../../store/repositories/console-sessions.js';
import { SignInBody } from './schemas.js';
import { checkUnsafeRequest, liveSession, requestScheme, sessionIdOf, sessionKeyStands } from './session-auth.js';
import { SIGN_IN_LIMITS, type SignInLimiter } from './sign-in-limiter.js';

/** What the console learns of its session: never the key, only what names it, and the CSRF token of its changes. */
function toSessionRecord(session: ConsoleSessionRow, sessionId: string, key: ApiKeyRow) {
  return {
    csrf_token: csrfTokenFor(sessionId),
    expires_at: sessionEndsAt(session),
    organization_id: session.organization_id,
    key: { hash: key.hash, name: key.name, label: key.label },
  };
}

/**
 * The web console's sign-in: POST /console/session trades a management key for a session cookie (HttpOnly,
 * SameSite=Strict, scoped to the API's path), GET tells the page its session, DELETE signs out.
 */
export function consoleSessionRoutes({ db, clock, auth, keys }: Services, signInLimit: SignInLimiter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const cookiePath = app.prefix || '/';
    const cookieOptions = (request: FastifyRequest) =>
      ({ httpOnly: true, sameSite: 'strict', path: cookiePath, secure: requestScheme(request) === 'https' }) as const;
    const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

    app.post('/console/session', { schema: { body: SignInBody, security: [] } }, async (request, reply) => {
      // Sign-in makes no change an attacker could want, but a page of another site must not sign a browser in either.
      checkUnsafeRequest(request, undefined);
      const attempt = await signInLimit(request.ip, request.body.key);
      if (!attempt.allowed) {
        void reply.header('retry-after', String(attempt.retryAfterSeconds));
        throw Errors.consoleSignInRateLimited(
          { retry_after_seconds: attempt.retryAfterSeconds },
          attempt.by,
          attempt.attempts,
          SIGN_IN_LIMITS.windowSeconds,
        );
      }
      const key = await keys.get(hashApiKey(request.body.key));
      if (!key) throw Errors.invalidApiKey();
      if (key.disabled) throw Errors.disabledApiKey();
      const now = clock();
      if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime()) throw Errors.expiredApiKey();
      if (!key.is_management) throw Errors.managementKeyRequired();
      const sessionId = newSessionId();
      const session: ConsoleSessionRow = {
        id_hash: hashSessionId(sessionId),
        organization_id: key.organization_id,
        api_key_hash: key.hash,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_MAX_MS).toISOString(),
      };
      await deleteEndedConsoleSessions(db, new Date(now.getTime() - SESSION_IDLE_MS).toISOString(), now.toISOString());
      await insertConsoleSession(db, session);
      // Read again with its key: a key disabled or deleted meanwhile (its sessions deleted before this one existed) takes it too.
      const inserted = await findConsoleSession(db, session.id_hash);
      if (!inserted || !sessionKeyStands(inserted)) {
        await deleteConsoleSession(db, session.id_hash);
        throw inserted?.key_disabled === 0 ? Errors.internKeyCreatorNotMember() : Errors.consoleSessionEnded();
      }
      await attempt.succeeded();
      noStore(reply).setCookie(SESSION_COOKIE, sessionId, { ...cookieOptions(request), maxAge: SESSION_MAX_MS / 1000 });
      return reply.code(201).send({ data: toSessionRecord(session, sessionId, key) });
    });

    app.get('/console/session', { onRequest: auth.requireManagementKey }, async (request, reply) => {
      const sessionId = sessionIdOf(request);
      if (sessionId === undefined) throw Errors.consoleSessionEnded();
      const session = await liveSession(db, clock, sessionId);
      const key = callerKey(request);
      // A Bearer key beside the cookie authenticated this request: the session is another key's.
      if (key.hash !== session.api_key_hash) throw Errors.consoleSessionEnded();
      noStore(reply);
      return { data: toSessionRecord(session, sessionId, key) };
    });

    app.delete('/console/session', { onRequest: auth.requireManagementKey }, async (request, reply) => {
      const sessionId = sessionIdOf(request);
      if (sessionId === undefined) throw Errors.consoleSessionEnded();
      await deleteConsoleSession(db, hashSessionId(sessionId));
      noStore(reply).clearCookie(SESSION_COOKIE, cookieOptions(request));
      return reply.code(204).send();
    });
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { createApiKey } from '../../accounts/create-api-key.js';
import { verifierMatchesChallenge } from '../../accounts/pkce.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { findOrCreateApp } from '../../store/repositories/apps.js';
import {
  consumeAuthorizationCode,
  findAuthorizationCode,
  hasLiveCodeForChallenge,
  insertAuthorizationCode,
} from '../../store/repositories/authorization-codes.js';
import { findDefaultWorkspace, findWorkspace } from '../../store/repositories/organizations.js';
import { announceKeyChange, type Services } from '../../services.js';
import { newAuthorizationCodeId } from '../../util/ids.js';
import { checkCallbackUrl } from './callback-url.js';
import { CreateAuthCodeBody, ExchangeAuthCodeBody } from './schemas.js';

/** How long an authorization code can be exchanged. */
export const AUTHORIZATION_CODE_TTL_MS = 5 * 60 * 1000;

/** The app asking, as the reference's app headers name it; the callback's origin otherwise. */
function appIdentity(request: FastifyRequest, callback: URL): { origin: string; name: { value: string; stated: boolean } } {
  const referer = request.headers['http-referer'] ?? request.headers.referer;
  let origin = callback.origin;
  if (typeof referer === 'string') {
    try {
      origin = new URL(referer).origin;
    } catch {
      // Not a URL: identify the app by its callback.
    }
  }
  const title = request.headers['x-openrouter-title'] ?? request.headers['x-title'];
  const stated = typeof title === 'string' && title.trim().length > 0;
  return { origin, name: { value: stated ? title.trim().slice(0, 100) : new URL(origin).hostname, stated } };
}

export function authRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth } = services;

  return async (app) => {
    app.post('/auth/keys/code', { onRequest: auth.requireKey, schema: { body: CreateAuthCodeBody } }, async (request) => {
      const caller = callerKey(request);
      const body = request.body;
      const callback = checkCallbackUrl(body.callback_url);
      if (body.code_challenge_method && !body.code_challenge) {
        throw Errors.invalidRequest('code_challenge_method requires code_challenge');
      }
      const now = clock();
      const nowIso = now.toISOString();
      const keyExpiresAt = body.expires_at ? new Date(body.expires_at).toISOString() : null;
      if (keyExpiresAt && Date.parse(keyExpiresAt) <= now.getTime()) throw Errors.invalidRequest('expires_at must be in the future');
      const workspace = body.workspace_id
        ? await findWorkspace(db, caller.organization_id, body.workspace_id)
        : await findDefaultWorkspace(db, caller.organization_id);
      if (!workspace) throw Errors.invalidRequest(`workspace_id ${body.workspace_id} is not a workspace of this organization`);
      if (body.code_challenge && (await hasLiveCodeForChallenge(db, caller.organization_id, body.code_challenge, nowIso))) {
        throw Errors.authorizationCodeConflict();
      }
      const identity = appIdentity(request, callback);
      const appRecord = await findOrCreateApp(db, caller.organization_id, identity.origin, identity.name, nowIso);
      const id = newAuthorizationCodeId();
      await insertAuthorizationCode(db, {
        id,
        organization_id: caller.organization_id,
        user_id: caller.creator_user_id,
        app_id: appRecord.id,
        workspace_id: workspace.id,
        callback_url: callback.href,
        code_challenge: body.code_challenge ?? null,
        // RFC 7636 §4.3: a challenge sent without a method is "plain".
        code_challenge_method: body.code_challenge ? (body.code_challenge_method ?? 'plain') : null,
        key_label: body.key_label ?? appRecord.name,
        limit_usd: body.limit ?? null,
        limit_reset: body.usage_limit_type ?? null,
        key_expires_at: keyExpiresAt,
        created_at: nowIso,
        expires_at: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS).toISOString(),
        used_at: null,
      });
      return { data: { id, app_id: appRecord.id, created_at: nowIso } };
    });

    // No bearer key: the app has none yet; possession of the code and its verifier is the proof.
    app.post('/auth/keys', { schema: { body: ExchangeAuthCodeBody } }, async (request) => {
      const body = request.body;
      const nowIso = clock().toISOString();
      const code = await findAuthorizationCode(db, body.code);
      if (!code || code.used_at !== null || code.expires_at <= nowIso) throw Errors.invalidAuthorizationCode();
      if (code.code_challenge && code.code_challenge_method) {
        if (!body.code_verifier) throw Errors.codeVerifierMismatch('code_verifier is required for this code');
        if (body.code_challenge_method && body.code_challenge_method !== code.code_challenge_method) {
          throw Errors.codeVerifierMismatch(`code_challenge_method must be ${code.code_challenge_method}, as in the authorization request`);
        }
        if (!verifierMatchesChallenge(body.code_verifier, code.code_challenge, code.code_challenge_method)) {
          throw Errors.codeVerifierMismatch('code_verifier does not match the code_challenge');
        }
      }
      const { key, row } = await db.transaction().execute(async (trx) => {
        if (!(await consumeAuthorizationCode(trx, code.id, nowIso))) throw Errors.invalidAuthorizationCode();
        return createApiKey(
          trx,
          {
            organizationId: code.organization_id,
            workspaceId: code.workspace_id,
            name: code.key_label,
            limit: code.limit_usd,
            limitReset: code.limit_reset,
            creatorUserId: code.user_id,
            appId: code.app_id,
            expiresAt: code.key_expires_at,
          },
          nowIso,
        );
      });
      await announceKeyChange(services, row.hash);
      return { key, user_id: code.user_id };
    });
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { createApiKey } from '../../accounts/create-api-key.js';
import { type KeyTerms, mintedKeyTerms, mintingRefusal } from '../../accounts/minted-key-terms.js';
import { verifierMatchesChallenge } from '../../accounts/pkce.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { announceKeyChange, type Services } from '../../services.js';
import { type ApiKeyRow, findApiKey, findApiKeyByHash } from '../../store/repositories/api-keys.js';
import { findOrCreateApp } from '../../store/repositories/apps.js';
import {
  consumeAuthorizationCode,
  findAuthorizationCode,
  hasLiveCodeForChallenge,
  insertAuthorizationCode,
} from '../../store/repositories/authorization-codes.js';
import { newAuthorizationCodeId } from '../../util/ids.js';
import { checkCallbackUrl } from './callback-url.js';
import { CreateAuthCodeBody, ExchangeAuthCodeBody } from './schemas.js';

/** How long an authorization code can be exchanged. */
export const AUTHORIZATION_CODE_TTL_MS = 5 * 60 * 1000;

const CODE_CREATOR = 'The API key that created this authorization code';

/**
 * The terms of the key `creator` may mint for what was asked (accounts/
 * minted-key-terms.ts): 403 when it may mint nothing, 400 naming the field
 * that asks for more than it has. Run when the code is created and again at
 * the exchange, since the creator may have spent or been disabled between.
 */
function mintableTerms(creator: ApiKeyRow, requested: KeyTerms, now: Date, subject: string): KeyTerms {
  const refusal = mintingRefusal(creator, now);
  if (refusal) throw Errors.mintingRefused(subject, refusal);
  const bounded = mintedKeyTerms(creator, requested, now);
  if ('field' in bounded) throw Errors.invalidRequest(`${bounded.field} ${bounded.problem}`);
  return bounded.terms;
}

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
      if (body.workspace_id !== undefined && body.workspace_id !== caller.workspace_id) {
        throw Errors.invalidRequest(`workspace_id must be ${caller.workspace_id}, the workspace of the key creating the code`);
      }
      // Fresh counters: the cached record can trail the spend.
      const requested = { limit: body.limit ?? null, limitReset: body.usage_limit_type ?? null, expiresAt: keyExpiresAt };
      mintableTerms((await findApiKeyByHash(db, caller.hash)) ?? caller, requested, now, 'This API key');
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
        workspace_id: caller.workspace_id,
        creator_key_hash: caller.hash,
        callback_url: callback.href,
        code_challenge: body.code_challenge ?? null,
        // RFC 7636 §4.3: a challenge sent without a method is "plain".
        code_challenge_method: body.code_challenge ? (body.code_challenge_method ?? 'plain') : null,
        key_label: body.key_label ?? appRecord.name,
        // As asked: the exchange bounds them by the creator's state then.
        limit_usd: requested.limit,
        limit_reset: requested.limitReset,
        key_expires_at: requested.expiresAt,
        created_at: nowIso,
        expires_at: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS).toISOString(),
        used_at: null,
      });
      return { data: { id, app_id: appRecord.id, created_at: nowIso } };
    });

    // No bearer key: the app has none yet; possession of the code and its verifier is the proof.
    app.post('/auth/keys', { schema: { body: ExchangeAuthCodeBody, security: [] } }, async (request) => {
      const body = request.body;
      const now = clock();
      const nowIso = now.toISOString();
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
        // The creator again, as it stands now: disabled, spent or deleted since the code was made, it mints nothing.
        const creator = code.creator_key_hash === null ? undefined : await findApiKey(trx, code.organization_id, code.creator_key_hash);
        if (!creator) throw Errors.mintingRefused(CODE_CREATOR, 'no longer exists');
        const requested = { limit: code.limit_usd, limitReset: code.limit_reset, expiresAt: code.key_expires_at };
        const terms = mintableTerms(creator, requested, now, CODE_CREATOR);
        if (!(await consumeAuthorizationCode(trx, code.id, nowIso))) throw Errors.invalidAuthorizationCode();
        // Never a management key (createApiKey's default), and in the creator's workspace.
        return createApiKey(
          trx,
          {
            organizationId: code.organization_id,
            workspaceId: creator.workspace_id,
            name: code.key_label,
            limit: terms.limit,
            limitReset: terms.limitReset,
            creatorUserId: code.user_id,
            appId: code.app_id,
            expiresAt: terms.expiresAt,
          },
          nowIso,
        );
      });
      await announceKeyChange(services, row.hash);
      return { key, user_id: code.user_id };
    });
  };
}

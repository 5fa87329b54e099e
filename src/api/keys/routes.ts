import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { hashApiKey } from '../../accounts/api-key-material.js';
import { createApiKey } from '../../accounts/create-api-key.js';
import { partnerKeyProblem } from '../../accounts/partner-key.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { parseUtcTimestamp } from '../../http/utc-timestamp.js';
import { deleteApiKey, findApiKey, findApiKeyByHash, listApiKeys, updateApiKey } from '../../store/repositories/api-keys.js';
import { isMember } from '../../store/repositories/members.js';
import { findDefaultWorkspace, findWorkspace } from '../../store/repositories/organizations.js';
import { announceKeyChange, type Services } from '../../services.js';
import { CreateKeyBody, KeyHashParams, ListKeysQuery, UpdateKeyBody } from './schemas.js';
import { toCurrentKeyRecord, toKeyRecord } from './key-record.js';

const KEYS_PAGE_SIZE = 100;

export function keysRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth } = services;

  /** The named workspace of the organization, or its default one; a foreign workspace is as absent as a missing one. */
  async function workspaceOf(organizationId: string, workspaceId: string | undefined) {
    if (workspaceId === undefined) {
      const workspace = await findDefaultWorkspace(db, organizationId);
      if (!workspace) throw Errors.internal();
      return workspace;
    }
    const workspace = await findWorkspace(db, organizationId, workspaceId);
    if (!workspace) throw Errors.invalidRequest(`workspace_id ${workspaceId} is not a workspace of this organization`);
    return workspace;
  }

  return async (app) => {
    app.get('/key', { onRequest: auth.requireKey }, async (request) => {
      const key = callerKey(request);
      // The cached record can trail the spend counters; this endpoint shows them fresh.
      const row = (await findApiKey(db, key.organization_id, key.hash)) ?? key;
      return { data: toCurrentKeyRecord(row, clock()) };
    });

    app.get('/keys', { onRequest: auth.requireManagementKey, schema: { querystring: ListKeysQuery } }, async (request) => {
      const caller = callerKey(request);
      const workspace = await workspaceOf(caller.organization_id, request.query.workspace_id);
      const rows = await listApiKeys(db, {
        organizationId: caller.organization_id,
        workspaceId: workspace.id,
        includeDisabled: request.query.include_disabled ?? false,
        offset: request.query.offset ?? 0,
        limit: KEYS_PAGE_SIZE,
      });
      const now = clock();
      return { data: rows.map((row) => toKeyRecord(row, now)) };
    });

    app.post('/keys', { onRequest: auth.requireManagementKey, schema: { body: CreateKeyBody } }, async (request, reply) => {
      const caller = callerKey(request);
      const body = request.body;
      const now = clock();
      const expiresAt = body.expires_at ? parseUtcTimestamp('expires_at', body.expires_at) : null;
      if (expiresAt && Date.parse(expiresAt) <= now.getTime()) throw Errors.invalidRequest('expires_at must be in the future');
      const workspace = await workspaceOf(caller.organization_id, body.workspace_id);
      const creator = body.creator_user_id ?? caller.creator_user_id;
      if (body.creator_user_id && !(await isMember(db, caller.organization_id, body.creator_user_id))) {
        throw Errors.invalidRequest(`creator_user_id ${body.creator_user_id} is not a member of this organization`);
      }
      const partnerKey = body.external?.api_key;
      if (partnerKey !== undefined) {
        const problem = partnerKeyProblem(partnerKey);
        if (problem) throw Errors.invalidRequest(`external.api_key ${problem}`);
        if (await findApiKeyByHash(db, hashApiKey(partnerKey))) throw Errors.invalidRequest('external.api_key is already in use');
      }
      const { key, row } = await createApiKey(
        db,
        {
          ...(partnerKey !== undefined ? { key: partnerKey } : {}),
          externalUser: body.external?.user ?? null,
          organizationId: caller.organization_id,
          workspaceId: workspace.id,
          name: body.name,
          limit: body.limit ?? null,
          limitReset: body.limit_reset ?? null,
          includeByokInLimit: body.include_byok_in_limit ?? false,
          creatorUserId: creator,
          expiresAt,
        },
        now.toISOString(),
      );
      await announceKeyChange(services, row.hash);
      return reply.code(201).send({ data: toKeyRecord(row, now), key });
    });

    app.get('/keys/:hash', { onRequest: auth.requireManagementKey, schema: { params: KeyHashParams } }, async (request) => {
      const caller = callerKey(request);
      const row = await findApiKey(db, caller.organization_id, request.params.hash);
      if (!row) throw Errors.notFound('API key');
      return { data: toKeyRecord(row, clock()) };
    });

    app.patch(
      '/keys/:hash',
      { onRequest: auth.requireManagementKey, schema: { params: KeyHashParams, body: UpdateKeyBody } },
      async (request) => {
        const caller = callerKey(request);
        const body = request.body;
        const now = clock();
        if (body.creator_user_id !== undefined && !(await isMember(db, caller.organization_id, body.creator_user_id))) {
          throw Errors.invalidRequest(`creator_user_id ${body.creator_user_id} is not an active member of this organization`);
        }
        const row = await updateApiKey(db, caller.organization_id, request.params.hash, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.creator_user_id !== undefined ? { creator_user_id: body.creator_user_id } : {}),
          ...(body.disabled !== undefined ? { disabled: body.disabled ? 1 : 0 } : {}),
          ...(body.include_byok_in_limit !== undefined ? { include_byok_in_limit: body.include_byok_in_limit ? 1 : 0 } : {}),
          ...(body.limit !== undefined ? { limit_usd: body.limit } : {}),
          ...(body.limit_reset !== undefined ? { limit_reset: body.limit_reset } : {}),
          updated_at: now.toISOString(),
        });
        if (!row) throw Errors.notFound('API key');
        await announceKeyChange(services, row.hash);
        return { data: toKeyRecord(row, now) };
      },
    );

    app.delete('/keys/:hash', { onRequest: auth.requireManagementKey, schema: { params: KeyHashParams } }, async (request) => {
      const caller = callerKey(request);
      const deleted = await deleteApiKey(db, caller.organization_id, request.params.hash);
      if (!deleted) throw Errors.notFound('API key');
      await announceKeyChange(services, request.params.hash);
      return { deleted: true as const };
    });
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { hashApiKey } from '../../accounts/api-key-material.js';
import { createApiKey } from '../../accounts/create-api-key.js';
import { partnerKeyProblem } from '../../accounts/partner-key.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { announceKeyChange, type Services } from '../../services.js';
import type { Reach } from '../../store/reach.js';
import { type ApiKeyRow, deleteApiKey, findApiKey, findApiKeyByHash, listApiKeys } from '../../store/repositories/api-keys.js';
import { isMember } from '../../store/repositories/members.js';
import { keyInReach, managementReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { keyExpiry, keyWorkspace, updateKey } from './key-operations.js';
import { toCurrentKeyRecord, toKeyRecord } from './key-record.js';
import { CreateKeyBody, KEYS_PAGE_SIZE, KeyHashParams, ListKeysQuery, UpdateKeyBody } from './schemas.js';

export function keysRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth } = services;

  /** A key in reach; another workspace's, for a scoped key, is as absent as a missing one. */
  async function keyOf(reach: Reach, hash: string): Promise<ApiKeyRow> {
    const row = keyInReach(reach, await findApiKey(db, reach.organizationId, hash));
    if (!row) throw Errors.notFound('API key');
    return row;
  }

  return async (app) => {
    app.get('/key', { onRequest: auth.requireKey }, async (request) => {
      const key = callerKey(request);
      // The cached record can trail the spend counters; this endpoint shows them fresh.
      const row = (await findApiKey(db, key.organization_id, key.hash)) ?? key;
      return { data: toCurrentKeyRecord(row, clock()) };
    });

    app.get('/keys', { onRequest: auth.requireManagementKey, schema: { querystring: ListKeysQuery } }, async (request) => {
      const reach = managementReach(callerKey(request));
      const workspace = await keyWorkspace(db, reach.organizationId, workspaceInReach(reach, request.query.workspace_id));
      const rows = await listApiKeys(db, {
        reach,
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
      const expiresAt = keyExpiry(body.expires_at, now);
      const workspace = await keyWorkspace(db, caller.organization_id, workspaceInReach(managementReach(caller), body.workspace_id));
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
      return { data: toKeyRecord(await keyOf(managementReach(callerKey(request)), request.params.hash), clock()) };
    });

    app.patch(
      '/keys/:hash',
      { onRequest: auth.requireManagementKey, schema: { params: KeyHashParams, body: UpdateKeyBody } },
      async (request) => {
        const now = clock();
        const row = await updateKey(db, managementReach(callerKey(request)), request.params.hash, request.body, now);
        if (!row) throw Errors.notFound('API key');
        await announceKeyChange(services, row.hash);
        return { data: toKeyRecord(row, now) };
      },
    );

    app.delete('/keys/:hash', { onRequest: auth.requireManagementKey, schema: { params: KeyHashParams } }, async (request) => {
      const reach = managementReach(callerKey(request));
      await keyOf(reach, request.params.hash);
      if (!(await deleteApiKey(db, reach.organizationId, request.params.hash))) throw Errors.notFound('API key');
      await announceKeyChange(services, request.params.hash);
      return { deleted: true as const };
    });
  };
}

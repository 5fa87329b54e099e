import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BYOK_TOPIC, type CredentialCache } from '../../byok/credential-cache.js';
import type { Envelope } from '../../byok/envelope.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import {
  deleteByokCredential,
  findByokCredential,
  insertByokCredential,
  listByokCredentials,
  updateByokCredential,
} from '../../store/repositories/byok-credentials.js';
import { newUuid } from '../../util/ids.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { checkKeyHashes, credentialColumns, credentialWorkspace, knownProvider } from './byok-input.js';
import { toByokRecord } from './byok-record.js';
import { BYOK_PAGE_SIZE, ByokParams, CreateByokBody, ListByokQuery, UpdateByokBody } from './schemas.js';

/**
 * The reference's BYOK routes (GET/POST /byok, GET/PATCH/DELETE /byok/{id}),
 * management key required. A credential belongs to a workspace of the
 * caller's organization, or to the organization (workspace_id null, which a
 * scoped key never sees); the key is sealed on the way in and never leaves.
 * A change reaches every instance's credential cache through the change feed.
 */
export function byokRoutes(services: Services & { envelope: Envelope; credentials: CredentialCache }): FastifyPluginAsyncTypebox {
  const { db, clock, auth, changes, catalog, envelope, credentials } = services;
  // Every instance hears of it; this one has it before answering, so that the caller's next request goes out on the change.
  const announce = async (organizationId: string) => {
    await changes.publish(BYOK_TOPIC, organizationId);
    await credentials.reload();
  };

  return async (app) => {
    app.get('/byok', { onRequest: auth.requireManagementKey, schema: { querystring: ListByokQuery } }, async (request) => {
      const reach = managementReach(callerKey(request));
      // As the reference's: a workspace's credentials, the default workspace's (a scoped key's own) when none is named; the
      // organization's credentials serve it too, and show to an organization key only (the reach keeps them from a scoped one).
      const { rows, total } = await listByokCredentials(db, reach, {
        workspaceId: (await credentialWorkspace(db, reach, request.query.workspace_id)) ?? undefined,
        organizationWide: true,
        provider: request.query.provider,
        offset: request.query.offset ?? 0,
        limit: request.query.limit ?? BYOK_PAGE_SIZE,
      });
      return { data: rows.map(toByokRecord), total_count: total };
    });

    app.post('/byok', { onRequest: auth.requireManagementKey, schema: { body: CreateByokBody } }, async (request, reply) => {
      const caller = callerKey(request);
      const reach = managementReach(caller);
      const { body } = request;
      // The workspace first: another workspace's is absent whatever else the body says.
      const workspaceId = await credentialWorkspace(db, reach, body.workspace_id);
      const provider = knownProvider(catalog, body.provider);
      await checkKeyHashes(db, caller.organization_id, body.allowed_api_key_hashes);
      const now = clock().toISOString();
      const columns = credentialColumns(body, envelope, now);
      const created = await insertByokCredential(db, {
        ...columns,
        id: newUuid(),
        organization_id: caller.organization_id,
        workspace_id: workspaceId,
        provider,
        label: columns.label as string,
        created_at: now,
        updated_at: now,
      });
      await announce(caller.organization_id);
      return reply.code(201).send({ data: toByokRecord(created) });
    });

    app.get('/byok/:id', { onRequest: auth.requireManagementKey, schema: { params: ByokParams } }, async (request) => {
      const found = await findByokCredential(db, managementReach(callerKey(request)), request.params.id);
      if (!found) throw Errors.notFound(`BYOK credential ${request.params.id}`);
      return { data: toByokRecord(found) };
    });

    app.patch(
      '/byok/:id',
      { onRequest: auth.requireManagementKey, schema: { params: ByokParams, body: UpdateByokBody } },
      async (request) => {
        const caller = callerKey(request);
        await checkKeyHashes(db, caller.organization_id, request.body.allowed_api_key_hashes);
        const updated = await updateByokCredential(
          db,
          managementReach(caller),
          request.params.id,
          credentialColumns(request.body, envelope, clock().toISOString()),
        );
        if (!updated) throw Errors.notFound(`BYOK credential ${request.params.id}`);
        await announce(caller.organization_id);
        return { data: toByokRecord(updated) };
      },
    );

    app.delete('/byok/:id', { onRequest: auth.requireManagementKey, schema: { params: ByokParams } }, async (request) => {
      const caller = callerKey(request);
      if (!(await deleteByokCredential(db, managementReach(caller), request.params.id, clock().toISOString())))
        throw Errors.notFound(`BYOK credential ${request.params.id}`);
      await announce(caller.organization_id);
      return { deleted: true as const };
    });
  };
}

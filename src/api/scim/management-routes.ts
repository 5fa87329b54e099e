import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { remapGroup } from '../../scim/provisioning.js';
import { createScimToken } from '../../scim/scim-token.js';
import type { Services } from '../../services.js';
import {
  deleteGroupMapping,
  findGroupMapping,
  findGroupMappingByPair,
  insertGroupMapping,
  listGroupMappings,
  type ScimGroupMappingRow,
  setGroupMappingRole,
} from '../../store/repositories/scim-group-mappings.js';
import { findScimGroup, listScimGroupRows } from '../../store/repositories/scim-groups.js';
import { deleteScimToken } from '../../store/repositories/scim-tokens.js';
import { findWorkspace } from '../../store/repositories/workspaces.js';
import { newUuid } from '../../util/ids.js';
import { requireOrganizationAdmin } from './organization-admin.js';
import { provisioningDeps } from './provisioning-deps.js';
import { CreateMappingBody, DeleteMappingQuery, MappingParams, SCIM_PAGE_SIZE, ScimPageQuery, UpdateMappingBody } from './schemas.js';

/**
 * The reference's SCIM management operations (group-to-workspace mappings, the groups an identity
 * provider pushed) and the SCIM bearer token: an organization owner's or admin's management key only.
 */
export function scimManagementRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, auth } = services;
  const deps = provisioningDeps(services);
  /** The caller's organization, once its key is found to be an organization owner's or admin's. */
  const organizationOf = async (request: FastifyRequest, what: string) => {
    const key = callerKey(request);
    await requireOrganizationAdmin(db, key, what);
    return key.organization_id;
  };
  const mappingOf = async (organizationId: string, id: string) => {
    const row = await findGroupMapping(db, organizationId, id);
    if (!row) throw Errors.notFound('SCIM group mapping');
    return row;
  };

  return async (app) => {
    app.get('/scim/group-mappings', { onRequest: auth.requireManagementKey, schema: { querystring: ScimPageQuery } }, async (request) => {
      const organizationId = await organizationOf(request, 'Listing SCIM group mappings');
      const { rows, total } = await listGroupMappings(db, organizationId, request.query.offset ?? 0, request.query.limit ?? SCIM_PAGE_SIZE);
      return { data: rows, total_count: total };
    });

    app.post(
      '/scim/group-mappings',
      { onRequest: auth.requireManagementKey, schema: { body: CreateMappingBody } },
      async (request, reply) => {
        const organizationId = await organizationOf(request, 'Creating a SCIM group mapping');
        const { scim_group_id, workspace_id, role } = request.body;
        const data = await remapGroup(deps, organizationId, async (trx, now) => {
          if (!(await findScimGroup(trx, organizationId, scim_group_id))) throw Errors.notFound(`SCIM group ${scim_group_id}`);
          const workspace = await findWorkspace(trx, organizationId, workspace_id);
          if (!workspace) throw Errors.notFound(`Workspace ${workspace_id}`);
          if (await findGroupMappingByPair(trx, scim_group_id, workspace.id)) throw Errors.scimMappingExists(scim_group_id, workspace.id);
          const row: ScimGroupMappingRow = {
            id: newUuid(),
            organization_id: organizationId,
            scim_group_id,
            workspace_id: workspace.id,
            role,
            created_at: now,
            updated_at: now,
          };
          await insertGroupMapping(trx, row);
          return { result: row, groupId: scim_group_id };
        });
        return reply.code(201).send({ data });
      },
    );

    app.get('/scim/group-mappings/:id', { onRequest: auth.requireManagementKey, schema: { params: MappingParams } }, async (request) => {
      const organizationId = await organizationOf(request, 'Reading a SCIM group mapping');
      return { data: await mappingOf(organizationId, request.params.id) };
    });

    app.patch(
      '/scim/group-mappings/:id',
      { onRequest: auth.requireManagementKey, schema: { params: MappingParams, body: UpdateMappingBody } },
      async (request) => {
        const organizationId = await organizationOf(request, 'Changing a SCIM group mapping');
        const row = await mappingOf(organizationId, request.params.id);
        const data = await remapGroup(deps, organizationId, async (trx, now) => {
          await setGroupMappingRole(trx, row.id, request.body.role, now);
          return { result: { ...row, role: request.body.role, updated_at: now }, groupId: row.scim_group_id };
        });
        return { data };
      },
    );

    app.delete(
      '/scim/group-mappings/:id',
      { onRequest: auth.requireManagementKey, schema: { params: MappingParams, querystring: DeleteMappingQuery } },
      async (request) => {
        const organizationId = await organizationOf(request, 'Deleting a SCIM group mapping');
        const row = await mappingOf(organizationId, request.params.id);
        await remapGroup(deps, organizationId, async (trx) => {
          await deleteGroupMapping(trx, row.id);
          return { result: undefined, groupId: row.scim_group_id, release: request.query.keep_members };
        });
        return { deleted: true as const };
      },
    );

    app.get('/scim/groups', { onRequest: auth.requireManagementKey, schema: { querystring: ScimPageQuery } }, async (request) => {
      const organizationId = await organizationOf(request, 'Listing SCIM groups');
      const { rows, total } = await listScimGroupRows(
        db,
        organizationId,
        {},
        request.query.offset ?? 0,
        request.query.limit ?? SCIM_PAGE_SIZE,
      );
      return { data: rows, total_count: total };
    });

    // Beyond the reference: the bearer token identity providers present at /scim/v2. Creating one rotates it.
    app.post('/scim/token', { onRequest: auth.requireManagementKey }, async (request, reply) => {
      const organizationId = await organizationOf(request, 'Creating the SCIM token');
      const { token, record } = await createScimToken(
        db,
        organizationId,
        callerKey(request).creator_user_id,
        services.clock().toISOString(),
      );
      return reply.code(201).send({ data: record, token });
    });

    app.delete('/scim/token', { onRequest: auth.requireManagementKey }, async (request) => {
      const organizationId = await organizationOf(request, 'Deleting the SCIM token');
      if (!(await deleteScimToken(db, organizationId))) throw Errors.notFound('SCIM token');
      return { deleted: true as const };
    });
  };
}

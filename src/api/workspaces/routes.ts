import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WORKSPACE_BUDGETS_TOPIC } from '../../accounting/workspace-budget-cache.js';
import { GUARDRAILS_TOPIC } from '../../guardrails/guardrail-cache.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { announceKeyChange, type Services } from '../../services.js';
import { deleteWorkspace, listWorkspaces, updateWorkspace } from '../../store/repositories/workspaces.js';
import { managementReach, requireOrganizationReach } from '../../workspaces/management-reach.js';
import { WORKSPACES_TOPIC } from '../../workspaces/workspace-cache.js';
import { CreateWorkspaceBody, ListQuery, UpdateWorkspaceBody, WORKSPACES_PAGE_SIZE, WorkspaceParams } from './schemas.js';
import { newWorkspace, workspaceFields, workspaceOf } from './workspace-operations.js';
import { toWorkspaceRecord } from './workspace-record.js';

/**
 * The reference's workspaces (GET/POST /workspaces, GET/PATCH/DELETE
 * /workspaces/{id}, `{id}` the UUID or the slug), management key required.
 * A workspace belongs to the caller's organization: another organization's,
 * and a deleted one, are as absent as a missing one. A change reaches every
 * instance's cache of workspace defaults through the change feed.
 */
export function workspacesRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth, changes, catalog } = services;

  return async (app) => {
    app.get('/workspaces', { onRequest: auth.requireManagementKey, schema: { querystring: ListQuery } }, async (request) => {
      const { rows, total } = await listWorkspaces(db, managementReach(callerKey(request)), {
        offset: request.query.offset ?? 0,
        limit: request.query.limit ?? WORKSPACES_PAGE_SIZE,
      });
      return { data: rows.map(toWorkspaceRecord), total_count: total };
    });

    app.post('/workspaces', { onRequest: auth.requireManagementKey, schema: { body: CreateWorkspaceBody } }, async (request, reply) => {
      const caller = callerKey(request);
      requireOrganizationReach(managementReach(caller), 'create workspaces');
      const created = await newWorkspace(db, catalog, caller.organization_id, caller.creator_user_id, request.body, clock().toISOString());
      return reply.code(201).send({ data: toWorkspaceRecord(created) });
    });

    app.get('/workspaces/:id', { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams } }, async (request) => ({
      data: toWorkspaceRecord(await workspaceOf(db, managementReach(callerKey(request)), request.params.id)),
    }));

    app.patch(
      '/workspaces/:id',
      { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams, body: UpdateWorkspaceBody } },
      async (request) => {
        const reach = managementReach(callerKey(request));
        const workspace = await workspaceOf(db, reach, request.params.id);
        const updated = await updateWorkspace(
          db,
          reach.organizationId,
          workspace.id,
          workspaceFields(request.body, catalog, clock().toISOString()),
        );
        if (updated === 'slug-taken') throw Errors.workspaceSlugTaken(request.body.slug!);
        if (!updated) throw Errors.notFound(`Workspace ${request.params.id}`);
        await changes.publish(WORKSPACES_TOPIC, workspace.id);
        return { data: toWorkspaceRecord(updated) };
      },
    );

    app.delete('/workspaces/:id', { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams } }, async (request) => {
      const reach = managementReach(callerKey(request));
      const workspace = await workspaceOf(db, reach, request.params.id);
      requireOrganizationReach(reach, 'delete workspaces');
      const organizationId = reach.organizationId;
      // The default workspace holds every member implicitly; with it always there, no deletion leaves an organization without one.
      if (workspace.is_default === 1) throw Errors.defaultWorkspaceUndeletable(workspace.slug);
      const outcome = await deleteWorkspace(db, workspace, clock().toISOString());
      if (!outcome.deleted) throw Errors.workspaceHasActiveKeys(workspace.slug, outcome.activeKeys);
      await changes.publish(WORKSPACES_TOPIC, workspace.id);
      await changes.publish(GUARDRAILS_TOPIC, organizationId);
      await changes.publish(WORKSPACE_BUDGETS_TOPIC, organizationId);
      for (const hash of outcome.disabledKeys) await announceKeyChange(services, hash);
      return { deleted: true as const };
    });
  };
}

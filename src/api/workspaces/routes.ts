import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { WORKSPACE_BUDGETS_TOPIC } from '../../accounting/workspace-budget-cache.js';
import { BYOK_TOPIC } from '../../byok/credential-cache.js';
import type { Containers } from '../../containers/containers.js';
import { DESTINATIONS_TOPIC } from '../../destinations/destination-cache.js';
import type { FilesService } from '../../files/files-service.js';
import { GUARDRAILS_TOPIC } from '../../guardrails/guardrail-cache.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { PRESETS_TOPIC, presetCacheId } from '../../presets/preset-cache.js';
import { announceKeyChange, type Services } from '../../services.js';
import type { RemovedContents } from '../../store/repositories/workspace-contents.js';
import { deleteWorkspace, listWorkspaces, updateWorkspace } from '../../store/repositories/workspaces.js';
import { managementReach, requireOrganizationReach } from '../../workspaces/management-reach.js';
import { WORKSPACES_TOPIC } from '../../workspaces/workspace-cache.js';

/** Files and container directories removed at once when a workspace is deleted: a bound on open handles and S3 calls. */
const REMOVALS_AT_ONCE = 16;

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
export function workspacesRoutes(services: Services & { files: FilesService; containers: Containers }): FastifyPluginAsyncTypebox {
  const { db, clock, auth, changes, catalog, files, containers } = services;

  /**
   * The bytes of a deleted workspace's files and containers, once no row names them. The deletion stands
   * whatever fails here (logged): what is left can no longer be reached, only take space.
   */
  const removeLeftBytes = async (removed: RemovedContents, log: FastifyBaseLogger) => {
    const removals = [
      ...removed.fileIds.map((id) => () => files.storage.remove(id)),
      ...removed.containerIds.map((id) => () => containers.discard(id)),
    ];
    for (let start = 0; start < removals.length; start += REMOVALS_AT_ONCE) {
      const outcomes = await Promise.allSettled(removals.slice(start, start + REMOVALS_AT_ONCE).map((remove) => remove()));
      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          log.warn({ err: outcome.reason }, "a deleted workspace's file or container could not be removed");
    }
  };

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
      if (!outcome.deleted)
        throw outcome.refused === 'interns'
          ? Errors.workspaceHasInterns(workspace.slug, outcome.count)
          : Errors.workspaceHasActiveKeys(workspace.slug, outcome.count);
      await changes.publish(WORKSPACES_TOPIC, workspace.id);
      await changes.publish(GUARDRAILS_TOPIC, organizationId);
      await changes.publish(WORKSPACE_BUDGETS_TOPIC, organizationId);
      for (const slug of outcome.presetSlugs) await changes.publish(PRESETS_TOPIC, presetCacheId(workspace.id, slug));
      if (outcome.byokCredentials > 0) await changes.publish(BYOK_TOPIC, organizationId);
      if (outcome.destinations > 0) await changes.publish(DESTINATIONS_TOPIC, 'all');
      for (const hash of outcome.disabledKeys) await announceKeyChange(services, hash);
      await removeLeftBytes(outcome, request.log);
      return { deleted: true as const };
    });
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import type { Services } from '../../services.js';
import { listWorkspaceMembers } from '../../store/repositories/workspace-members.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { AddMembersBody, ListQuery, RemoveMembersBody, WORKSPACES_PAGE_SIZE, WorkspaceParams } from './schemas.js';
import { addMembers, removeMembers, workspaceOf } from './workspace-operations.js';

/**
 * The reference's workspace members (GET /workspaces/{id}/members, POST
 * …/members/add and …/members/remove), management key required. Members are
 * the organization's, each with a role in the workspace (admin or member);
 * the default workspace holds them all implicitly.
 */
export function workspaceMemberRoutes({ db, clock, auth }: Pick<Services, 'db' | 'clock' | 'auth'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/workspaces/:id/members',
      { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams, querystring: ListQuery } },
      async (request) => {
        const workspace = await workspaceOf(db, managementReach(callerKey(request)), request.params.id);
        const { members, total } = await listWorkspaceMembers(db, workspace, {
          offset: request.query.offset ?? 0,
          limit: request.query.limit ?? WORKSPACES_PAGE_SIZE,
        });
        return { data: members, total_count: total };
      },
    );

    app.post(
      '/workspaces/:id/members/add',
      { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams, body: AddMembersBody } },
      async (request) => {
        const workspace = await workspaceOf(db, managementReach(callerKey(request)), request.params.id);
        const members = await addMembers(db, workspace, request.body, clock().toISOString());
        return { data: members, added_count: members.length };
      },
    );

    app.post(
      '/workspaces/:id/members/remove',
      { onRequest: auth.requireManagementKey, schema: { params: WorkspaceParams, body: RemoveMembersBody } },
      async (request) => {
        const workspace = await workspaceOf(db, managementReach(callerKey(request)), request.params.id);
        return { removed_count: await removeMembers(db, workspace, request.body, clock().toISOString()) };
      },
    );
  };
}

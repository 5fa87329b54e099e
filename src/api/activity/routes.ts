import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { activityQuery, toActivityItem } from '../../analytics/activity.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { memberKeys } from '../../store/repositories/api-keys.js';
import { isMember } from '../../store/repositories/members.js';
import { queryUsage } from '../../store/repositories/usage-hourly.js';
import { findWorkspace } from '../../store/repositories/workspaces.js';
import { managementReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { ActivityQuery } from './schemas.js';

/**
 * GET /activity (management keys, as the reference): the organization's
 * usage per day, model and endpoint over the last 30 completed UTC days,
 * from the hourly rollups. `user_id` narrows it to the keys that member
 * created (keys deleted since are no longer theirs to count).
 */
export function activityRoutes({ db, clock, auth }: Pick<Services, 'db' | 'clock' | 'auth'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/activity', { onRequest: auth.requireManagementKey, schema: { querystring: ActivityQuery } }, async (request) => {
      const reach = managementReach(callerKey(request));
      const { organizationId } = reach;
      const { date, api_key_hash, user_id, group_by } = request.query;
      // A scoped key's activity is its workspace's.
      const workspace_id = workspaceInReach(reach, request.query.workspace_id);
      // A deleted workspace's activity is still its history.
      if (workspace_id !== undefined && !(await findWorkspace(db, organizationId, workspace_id, { includeDeleted: true })))
        throw Errors.notFound('Workspace');
      let keyHashes: string[] | undefined = api_key_hash !== undefined ? [api_key_hash] : undefined;
      if (user_id !== undefined) {
        if (!(await isMember(db, organizationId, user_id))) throw Errors.notFound('Member');
        const own = (await memberKeys(db, organizationId, user_id, null)).map((key) => key.hash);
        keyHashes = keyHashes ? keyHashes.filter((hash) => own.includes(hash)) : own;
      }
      const byWorkspace = group_by === 'workspace';
      const query = activityQuery(
        organizationId,
        {
          ...(date !== undefined ? { date } : {}),
          ...(keyHashes ? { keyHashes } : {}),
          ...(workspace_id !== undefined ? { workspaceId: workspace_id } : {}),
          byWorkspace,
        },
        clock(),
      );
      const { rows } = await queryUsage(db, query);
      return { data: rows.map((row) => toActivityItem(row, byWorkspace)) };
    });
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import type { Services } from '../../services.js';
import { listMembers } from '../../store/repositories/members.js';
import { toOrganizationMember } from './member-record.js';
import { ListMembersQuery, MEMBERS_PAGE_SIZE } from './schemas.js';

export function organizationRoutes({ db, auth }: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/organization/members',
      { onRequest: auth.requireManagementKey, schema: { querystring: ListMembersQuery } },
      async (request) => {
        const caller = callerKey(request);
        const { members, total } = await listMembers(
          db,
          caller.organization_id,
          request.query.offset ?? 0,
          request.query.limit ?? MEMBERS_PAGE_SIZE,
        );
        return { data: members.map(toOrganizationMember), total_count: total };
      },
    );
  };
}

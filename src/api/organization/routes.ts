import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { listMembers, type Member } from '../../store/repositories/members.js';
import type { Services } from '../../services.js';
import { ListMembersQuery } from './schemas.js';

const DEFAULT_PAGE_SIZE = 50;

/** The reference knows two roles; an owner is an admin there. */
const toOrganizationMember = (m: Member) => ({
  id: m.id,
  email: m.email,
  first_name: m.first_name,
  last_name: m.last_name,
  role: m.role === 'member' ? 'org:member' : 'org:admin',
});

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
          request.query.limit ?? DEFAULT_PAGE_SIZE,
        );
        return { data: members.map(toOrganizationMember), total_count: total };
      },
    );
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { MEMBERSHIP_TOPIC, membershipKey } from '../../interns/flag-cache.js';
import type { Services } from '../../services.js';
import { addMember, findMember, listMembers, type Member, removeMember } from '../../store/repositories/members.js';
import { newUserId } from '../../util/ids.js';
import { managementReach, requireOrganizationReach } from '../../workspaces/management-reach.js';
import { toOrganizationMember } from './member-record.js';
import { AddMemberBody, ListMembersQuery, MEMBERS_PAGE_SIZE, MemberParams, UpdateMemberBody } from './schemas.js';

/**
 * The organization's members: the reference's list, and beyond it adding,
 * changing and removing one (what `model-gateway members` does), with a
 * management key of the organization. The owner is made at setup and is
 * neither changed nor removed here. A change is announced to every instance
 * (the interns' membership gate).
 */
export function organizationRoutes({ db, auth, clock, changes }: Services): FastifyPluginAsyncTypebox {
  const announce = (organizationId: string, userId: string) => changes.publish(MEMBERSHIP_TOPIC, membershipKey(organizationId, userId));
  /** The member named, unless it is the organization's owner. */
  const notOwner = (member: Member | undefined, doing: string) => {
    if (member?.role === 'owner') throw Errors.invalidRequest(`the organization's owner cannot be ${doing} here`);
    return member;
  };
  const memberOf = async (request: FastifyRequest, userId: string, doing: string) => {
    const caller = callerKey(request);
    requireOrganizationReach(managementReach(caller), "manage the organization's members");
    const member = notOwner(await findMember(db, caller.organization_id, { userId }), doing);
    if (!member) throw Errors.notFound(`Member ${userId}`);
    return { organizationId: caller.organization_id, member };
  };

  return async (app) => {
    app.get(
      '/organization/members',
      { onRequest: auth.requireManagementKey, schema: { querystring: ListMembersQuery } },
      async (request) => {
        const caller = callerKey(request);
        requireOrganizationReach(managementReach(caller), "list the organization's members");
        const { members, total } = await listMembers(
          db,
          caller.organization_id,
          request.query.offset ?? 0,
          request.query.limit ?? MEMBERS_PAGE_SIZE,
        );
        return { data: members.map(toOrganizationMember), total_count: total };
      },
    );

    app.post('/organization/members', { onRequest: auth.requireManagementKey, schema: { body: AddMemberBody } }, async (request, reply) => {
      const caller = callerKey(request);
      requireOrganizationReach(managementReach(caller), 'add members to the organization');
      const { email, role, ...names } = request.body;
      notOwner(await findMember(db, caller.organization_id, { email }), 'changed');
      const member = await addMember(
        db,
        caller.organization_id,
        { email, role: role ?? 'member', ...names },
        newUserId,
        clock().toISOString(),
      );
      await announce(caller.organization_id, member.id);
      return reply.code(201).send({ data: toOrganizationMember(member) });
    });

    app.patch(
      '/organization/members/:id',
      { onRequest: auth.requireManagementKey, schema: { params: MemberParams, body: UpdateMemberBody } },
      async (request) => {
        const { organizationId, member } = await memberOf(request, request.params.id, 'changed');
        const changed = await addMember(
          db,
          organizationId,
          { email: member.email, role: request.body.role ?? (member.role as 'admin' | 'member'), ...request.body },
          newUserId,
          clock().toISOString(),
        );
        await announce(organizationId, member.id);
        return { data: toOrganizationMember(changed) };
      },
    );

    app.delete('/organization/members/:id', { onRequest: auth.requireManagementKey, schema: { params: MemberParams } }, async (request) => {
      const { organizationId, member } = await memberOf(request, request.params.id, 'removed');
      await removeMember(db, organizationId, member.email);
      await announce(organizationId, member.id);
      return { deleted: true };
    });
  };
}

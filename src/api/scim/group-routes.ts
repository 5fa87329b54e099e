import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import { patchGroup, readGroup } from '../../scim/group-attributes.js';
import { createGroup, deleteGroup, type ProvisioningDeps, updateGroup } from '../../scim/provisioning.js';
import { groupResource, listResponse } from '../../scim/resources.js';
import { findScimGroup, listScimGroups } from '../../store/repositories/scim-groups.js';
import { baseUrl, excludesMembers, listQuery, SCIM_ROUTE } from './scim-request.js';

type IdParams = { Params: { id: string } };

const GROUP_FILTERS = { displayname: 'displayName', externalid: 'externalId', id: 'id' } as const;

/** /Groups (RFC 7644 §3): create, read, list with a filter, replace, patch members and name, delete. */
export function groupRoutes(app: FastifyInstance, deps: ProvisioningDeps, organizationOf: (request: FastifyRequest) => string): void {
  const load = async (request: FastifyRequest, id: string) => {
    const group = await findScimGroup(deps.db, organizationOf(request), id);
    if (!group) throw Errors.notFound('Group');
    return groupResource(group, baseUrl(request), !excludesMembers(request));
  };

  app.get('/Groups', SCIM_ROUTE, async (request) => {
    const { filter, startIndex, offset, count } = listQuery(request, GROUP_FILTERS);
    const withMembers = !excludesMembers(request);
    const { groups, total } = await listScimGroups(deps.db, organizationOf(request), filter, { offset, count }, withMembers);
    const base = baseUrl(request);
    return listResponse(
      groups.map((group) => groupResource(group, base, withMembers)),
      total,
      startIndex,
    );
  });

  app.post('/Groups', SCIM_ROUTE, async (request, reply) => {
    const id = await createGroup(deps, organizationOf(request), readGroup(request.body));
    const resource = await load(request, id);
    return reply.code(201).header('location', resource.meta.location).send(resource);
  });

  app.get<IdParams>('/Groups/:id', SCIM_ROUTE, async (request) => load(request, request.params.id));

  app.put<IdParams>('/Groups/:id', SCIM_ROUTE, async (request) => {
    const group = readGroup(request.body);
    await updateGroup(deps, organizationOf(request), request.params.id, () => group);
    return load(request, request.params.id);
  });

  // 204 as Okta's and Entra's documented exchanges show (RFC 7644 §3.5.2 allows it): members lists can be long.
  app.patch<IdParams>('/Groups/:id', SCIM_ROUTE, async (request, reply) => {
    await updateGroup(deps, organizationOf(request), request.params.id, (current) => patchGroup(current, request.body));
    return reply.code(204).send();
  });

  app.delete<IdParams>('/Groups/:id', SCIM_ROUTE, async (request, reply) => {
    await deleteGroup(deps, organizationOf(request), request.params.id);
    return reply.code(204).send();
  });
}

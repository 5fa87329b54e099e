import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Errors } from '../../http/errors.js';
import { createUser, deleteUser, type ProvisioningDeps, updateUser } from '../../scim/provisioning.js';
import { listResponse, userResource } from '../../scim/resources.js';
import { patchUser, readUser } from '../../scim/user-attributes.js';
import { findScimUser, listScimUsers } from '../../store/repositories/scim-users.js';
import type { Database } from '../../store/schema.js';
import { baseUrl, listQuery, SCIM_ROUTE } from './scim-request.js';

type IdParams = { Params: { id: string } };

const USER_FILTERS = { username: 'userName', externalid: 'externalId', id: 'id' } as const;

/** /Users (RFC 7644 §3): create, read, list with a filter, replace, patch and delete provisioned users. */
export function userRoutes(app: FastifyInstance, deps: ProvisioningDeps, organizationOf: (request: FastifyRequest) => string): void {
  const db: Kysely<Database> = deps.db;
  const load = async (organizationId: string, id: string) => {
    const user = await findScimUser(db, organizationId, id);
    if (!user) throw Errors.notFound('User');
    return user;
  };

  app.get('/Users', SCIM_ROUTE, async (request) => {
    const { filter, startIndex, offset, count } = listQuery(request, USER_FILTERS);
    const { users, total } = await listScimUsers(db, organizationOf(request), filter, offset, count);
    const base = baseUrl(request);
    return listResponse(
      users.map((user) => userResource(user, base)),
      total,
      startIndex,
    );
  });

  app.post('/Users', SCIM_ROUTE, async (request, reply) => {
    const organizationId = organizationOf(request);
    const id = await createUser(deps, organizationId, readUser(request.body));
    const resource = userResource(await load(organizationId, id), baseUrl(request));
    return reply.code(201).header('location', resource.meta.location).send(resource);
  });

  app.get<IdParams>('/Users/:id', SCIM_ROUTE, async (request) =>
    userResource(await load(organizationOf(request), request.params.id), baseUrl(request)),
  );

  app.put<IdParams>('/Users/:id', SCIM_ROUTE, async (request) => {
    const organizationId = organizationOf(request);
    const user = readUser(request.body);
    await updateUser(deps, organizationId, request.params.id, () => user);
    return userResource(await load(organizationId, request.params.id), baseUrl(request));
  });

  app.patch<IdParams>('/Users/:id', SCIM_ROUTE, async (request) => {
    const organizationId = organizationOf(request);
    await updateUser(deps, organizationId, request.params.id, (current) => patchUser(current, request.body));
    return userResource(await load(organizationId, request.params.id), baseUrl(request));
  });

  app.delete<IdParams>('/Users/:id', SCIM_ROUTE, async (request, reply) => {
    await deleteUser(deps, organizationOf(request), request.params.id);
    return reply.code(204).send();
  });
}

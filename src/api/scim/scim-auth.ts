import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { hashApiKey } from '../../accounts/api-key-material.js';
import { Errors } from '../../http/errors.js';
import { scimTokenOrganization } from '../../store/repositories/scim-tokens.js';
import type { Database } from '../../store/schema.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The SCIM bearer token → its organization. Read from the database on every request (SCIM traffic is
 * an identity provider's, not a model client's), so that a rotated token stops working at once on
 * every instance.
 */
export function scimAuthenticator(db: Kysely<Database>) {
  const organizations = new WeakMap<FastifyRequest, string>();
  return {
    async requireToken(request: FastifyRequest): Promise<void> {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      const organizationId = token === undefined ? undefined : await scimTokenOrganization(db, hashApiKey(token));
      if (organizationId === undefined) throw Errors.scimTokenInvalid();
      organizations.set(request, organizationId);
    },
    organizationOf(request: FastifyRequest): string {
      const organizationId = organizations.get(request);
      if (organizationId === undefined) throw Errors.internal();
      return organizationId;
    },
  };
}

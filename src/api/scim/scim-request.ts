import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseFilter } from '../../scim/filter.js';
import { filterBy, page } from '../../scim/resources.js';
import { scimInvalid } from '../../scim/values.js';

/** Largest page a list answers (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 100;

/** A query parameter given once, or undefined; given twice it is refused. */
function queryText(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  if (value === undefined || typeof value === 'string') return value;
  throw scimInvalid('invalidValue', `${name} must be given once`);
}

/** The service provider's base URL (…/scim/v2), as the client reached it: resources' `location` and `$ref` start with it. */
export function baseUrl(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  return `${request.protocol}://${request.host}${path.slice(0, path.indexOf('/scim/v2') + '/scim/v2'.length)}`;
}

/** A list's filter (on the attributes given, by lowercased name) and page. */
export function listQuery<A extends string>(request: FastifyRequest, attributes: Record<string, A>) {
  const text = queryText(request, 'filter');
  let filter: Partial<Record<A, string[]>> = {};
  if (text !== undefined) {
    const parsed = parseFilter(text);
    if (!parsed.ok) throw scimInvalid('invalidFilter', `filter: ${parsed.reason}`);
    filter = filterBy(parsed.comparisons, attributes);
  }
  const startIndex = queryText(request, 'startIndex');
  const count = queryText(request, 'count');
  return {
    filter,
    ...page({ ...(startIndex !== undefined ? { startIndex } : {}), ...(count !== undefined ? { count } : {}) }, MAX_RESULTS),
  };
}

/** Whether the answer leaves out members (`excludedAttributes=members`, as Entra asks). */
export function excludesMembers(request: FastifyRequest): boolean {
  const excluded = queryText(request, 'excludedAttributes') ?? '';
  return excluded.split(',').some((name) => name.trim().toLowerCase() === 'members');
}

/** RFC 7644 §3.12's error body, as the OpenAPI document describes SCIM routes' refusals and failures. */
const ScimError = Type.Object({
  schemas: Type.Array(Type.String()),
  status: Type.String(),
  scimType: Type.Optional(Type.String()),
  detail: Type.String(),
});

/** Every SCIM route's options: its errors are SCIM's, not the envelope. */
export const SCIM_ROUTE = {
  schema: { description: 'SCIM token required (POST /scim/token).', response: { '4XX': ScimError, '5XX': ScimError } },
};

import type { GatewayError } from '../protocol/gateway-error.js';
import type { StoredGroup } from '../store/repositories/scim-groups.js';
import type { StoredUser } from '../store/repositories/scim-users.js';
import type { Comparison } from './filter.js';
import { scimInvalid } from './values.js';

/** The SCIM JSON of the gateway's resources and messages (RFC 7643 §4, RFC 7644 §3.4.2 and §3.12). */
export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

const meta = (resourceType: 'User' | 'Group', location: string, created: string, lastModified: string) => ({
  resourceType,
  created,
  lastModified,
  location,
});

/** `base` is the service provider's base URL (…/scim/v2), for `location` and `$ref`. */
export function userResource(user: StoredUser, base: string) {
  const formatted = [user.givenName, user.familyName].filter((part) => part !== null).join(' ');
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(user.externalId !== null ? { externalId: user.externalId } : {}),
    userName: user.userName,
    name: {
      ...(formatted ? { formatted } : {}),
      ...(user.givenName !== null ? { givenName: user.givenName } : {}),
      ...(user.familyName !== null ? { familyName: user.familyName } : {}),
    },
    ...(user.displayName !== null ? { displayName: user.displayName } : {}),
    emails: user.email === null ? [] : [{ value: user.email, type: 'work', primary: true }],
    active: user.active,
    groups: user.groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${base}/Groups/${g.id}` })),
    meta: meta('User', `${base}/Users/${user.id}`, user.created, user.lastModified),
  };
}

export function groupResource(group: StoredGroup, base: string, withMembers: boolean) {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    ...(withMembers ? { members: group.members.map((m) => ({ value: m.id, display: m.display, $ref: `${base}/Users/${m.id}` })) } : {}),
    meta: meta('Group', `${base}/Groups/${group.id}`, group.created, group.lastModified),
  };
}

export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** RFC 7644 §3.12's error body; a 409 is a uniqueness conflict. */
export function errorResource(error: GatewayError) {
  const scimType = error.metadata?.scimType ?? (error.statusCode === 409 ? 'uniqueness' : undefined);
  return {
    schemas: [ERROR_SCHEMA],
    status: String(error.statusCode),
    ...(typeof scimType === 'string' ? { scimType } : {}),
    detail: error.message,
  };
}

/** Page of a list (RFC 7644 §3.4.2.4): 1-based startIndex (below 1 counts as 1), count 0 to `max`. */
export function page(query: { startIndex?: string; count?: string }, max: number): { startIndex: number; offset: number; count: number } {
  const startIndex = Math.max(1, integer(query.startIndex, 'startIndex') ?? 1);
  const count = Math.min(max, Math.max(0, integer(query.count, 'count') ?? max));
  return { startIndex, offset: startIndex - 1, count };
}

function integer(value: string | undefined, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d{1,15}$/.test(value)) throw scimInvalid('invalidValue', `${field} must be an integer`);
  return Number(value);
}

/**
 * The equalities a list may filter on, by attribute (lowercased), with the attributes each resource
 * knows; another attribute or a non-string value is an invalidFilter.
 */
export function filterBy<A extends string>(comparisons: Comparison[], attributes: Record<string, A>): Partial<Record<A, string[]>> {
  const out: Partial<Record<A, string[]>> = {};
  for (const { attribute, value } of comparisons) {
    const name = attributes[attribute.toLowerCase()];
    if (name === undefined)
      throw scimInvalid('invalidFilter', `filtering on ${attribute} is not supported; filter on ${Object.values(attributes).join(', ')}`);
    if (typeof value !== 'string') throw scimInvalid('invalidFilter', `${attribute} must be compared with a quoted string`);
    out[name] = [...(out[name] ?? []), value];
  }
  return out;
}

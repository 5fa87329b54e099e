import { MAX_PATCH_OPERATIONS } from './user-attributes.js';
import { isRecord, MAX_TEXT, patchOperations, scimInvalid, text } from './values.js';

/** What the gateway keeps of a SCIM Group (RFC 7643 §4.2): its members are user ids. */
export interface GroupAttributes {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/** Members one request may name. */
export const MAX_MEMBERS_PER_REQUEST = 1000;

/** The user ids of a `members` value: [{value, display?, $ref?}]. */
function memberIds(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw scimInvalid('invalidValue', `${field} must be an array of {value}`);
  if (value.length > MAX_MEMBERS_PER_REQUEST) throw scimInvalid('tooMany', `${field} names more than ${MAX_MEMBERS_PER_REQUEST} members`);
  return value.map((member, index) => text(isRecord(member) ? member.value : undefined, `${field}[${index}].value`, false));
}

const unique = (ids: string[]) => [...new Set(ids)];

/** A Group body of POST or PUT (PUT replaces its members too, as Okta's group push sends them). */
export function readGroup(body: unknown): GroupAttributes {
  if (!isRecord(body)) throw scimInvalid('invalidSyntax', 'The body must be a SCIM Group object');
  return {
    displayName: text(body.displayName, 'displayName', false),
    externalId: text(body.externalId, 'externalId', true),
    members: unique(memberIds(body.members, 'members')),
  };
}

/** `members[value eq "id"]`: the one member a remove names in its path (Okta). */
const MEMBER_FILTER = /^members\s*\[\s*value\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\]$/i;

function setAttribute(group: GroupAttributes, op: 'add' | 'replace' | 'remove', path: string, value: unknown): GroupAttributes {
  const member = MEMBER_FILTER.exec(path);
  if (member) {
    if (op !== 'remove') throw scimInvalid('invalidPath', `${path}: only remove may name a member in its path`);
    const id = JSON.parse(`"${member[1]}"`) as string;
    return { ...group, members: group.members.filter((m) => m !== id) };
  }
  switch (path.toLowerCase()) {
    case 'members': {
      // A remove without a value removes every member (RFC 7644 §3.5.2.2).
      if (op === 'remove' && (value === undefined || value === null)) return { ...group, members: [] };
      const ids = memberIds(value, 'members');
      if (op === 'add') return { ...group, members: unique([...group.members, ...ids]) };
      if (op === 'replace') return { ...group, members: unique(ids) };
      const gone = new Set(ids);
      return { ...group, members: group.members.filter((m) => !gone.has(m)) };
    }
    case 'displayname':
      if (op === 'remove') throw scimInvalid('mutability', 'displayName cannot be removed');
      return { ...group, displayName: text(value, 'displayName', false) };
    case 'externalid':
      return { ...group, externalId: op === 'remove' ? null : text(value, 'externalId', true) };
    default:
      // id, schemas, meta and attributes the gateway does not keep: accepted, not stored.
      return group;
  }
}

/**
 * The group after a PATCH (RFC 7644 §3.5.2): members added and removed as Okta and Entra send them
 * (`members` with a value list, or `members[value eq "…"]`), displayName and externalId replaced.
 */
export function patchGroup(group: GroupAttributes, body: unknown): GroupAttributes {
  let next = group;
  for (const [index, operation] of patchOperations(body, MAX_PATCH_OPERATIONS).entries()) {
    if (operation.path !== undefined) {
      if (operation.path.length > MAX_TEXT) throw scimInvalid('invalidPath', `Operations[${index}].path is too long`);
      if (operation.op !== 'remove' && operation.value === undefined)
        throw scimInvalid('invalidValue', `Operations[${index}].value is required`);
      next = setAttribute(next, operation.op, operation.path, operation.value);
      continue;
    }
    if (operation.op === 'remove') throw scimInvalid('noTarget', `Operations[${index}]: remove needs a path`);
    if (!isRecord(operation.value)) throw scimInvalid('invalidValue', `Operations[${index}].value must be an object when there is no path`);
    for (const [key, value] of Object.entries(operation.value)) next = setAttribute(next, operation.op, key, value);
  }
  return next;
}

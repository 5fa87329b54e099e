import type { UserAttributes } from '../store/repositories/scim-users.js';
import { bool, isRecord, MAX_TEXT, patchOperations, scimInvalid, text } from './values.js';

/** Operations one PATCH may hold. */
export const MAX_PATCH_OPERATIONS = 100;

/** The e-mail a SCIM `emails` value names: the primary one, else the work one, else the first. */
function primaryEmail(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw scimInvalid('invalidValue', 'emails must be an array of {value, type, primary}');
  const emails = value.filter(isRecord);
  const chosen = emails.find((e) => e.primary === true) ?? emails.find((e) => e.type === 'work') ?? emails[0];
  return chosen === undefined ? null : text(chosen.value, 'emails[].value', false);
}

/** A User body of POST or PUT: PUT replaces, so what it leaves out is cleared (active defaults to true). */
export function readUser(body: unknown): UserAttributes {
  if (!isRecord(body)) throw scimInvalid('invalidSyntax', 'The body must be a SCIM User object');
  const name = body.name === undefined || body.name === null ? {} : body.name;
  if (!isRecord(name)) throw scimInvalid('invalidValue', 'name must be an object');
  return {
    userName: text(body.userName, 'userName', false),
    externalId: text(body.externalId, 'externalId', true),
    displayName: text(body.displayName, 'displayName', true),
    givenName: text(name.givenName, 'name.givenName', true),
    familyName: text(name.familyName, 'name.familyName', true),
    email: primaryEmail(body.emails),
    active: body.active === undefined ? true : bool(body.active, 'active'),
  };
}

/** One attribute set by a PATCH path (lowercased) or by a key of a path-less value. */
function setAttribute(user: UserAttributes, path: string, value: unknown, removing: boolean): UserAttributes {
  const attribute = path.toLowerCase();
  switch (attribute) {
    case 'username':
      if (removing) throw scimInvalid('mutability', 'userName cannot be removed');
      return { ...user, userName: text(value, 'userName', false) };
    case 'active':
      return { ...user, active: removing ? false : bool(value, 'active') };
    case 'externalid':
      return { ...user, externalId: removing ? null : text(value, 'externalId', true) };
    case 'displayname':
      return { ...user, displayName: removing ? null : text(value, 'displayName', true) };
    case 'name.givenname':
      return { ...user, givenName: removing ? null : text(value, 'name.givenName', true) };
    case 'name.familyname':
      return { ...user, familyName: removing ? null : text(value, 'name.familyName', true) };
    case 'name':
      if (removing) return { ...user, givenName: null, familyName: null };
      if (!isRecord(value)) throw scimInvalid('invalidValue', 'name must be an object');
      return {
        ...user,
        ...(value.givenName !== undefined ? { givenName: text(value.givenName, 'name.givenName', true) } : {}),
        ...(value.familyName !== undefined ? { familyName: text(value.familyName, 'name.familyName', true) } : {}),
      };
    case 'emails':
      return { ...user, email: removing ? null : primaryEmail(value) };
    case 'emails.value':
    case 'emails[type eq "work"].value':
    case 'emails[primary eq true].value':
      return { ...user, email: removing ? null : text(value, 'emails[].value', false) };
    default:
      // Attributes the gateway does not keep (phoneNumbers, title, the enterprise extension, …): accepted, not stored.
      return user;
  }
}

/**
 * The user after a PATCH (RFC 7644 §3.5.2), as Okta sends it (`replace` with a value object and no
 * path) and as Entra sends it (`Replace` with a path, values possibly "True"/"False").
 */
export function patchUser(user: UserAttributes, body: unknown): UserAttributes {
  let next = user;
  for (const [index, operation] of patchOperations(body, MAX_PATCH_OPERATIONS).entries()) {
    const removing = operation.op === 'remove';
    if (operation.path !== undefined) {
      if (operation.path.length > MAX_TEXT) throw scimInvalid('invalidPath', `Operations[${index}].path is too long`);
      if (!removing && operation.value === undefined) throw scimInvalid('invalidValue', `Operations[${index}].value is required`);
      next = setAttribute(next, operation.path.replace(/\s+/g, ' '), operation.value, removing);
      continue;
    }
    if (removing) throw scimInvalid('noTarget', `Operations[${index}]: remove needs a path`);
    if (!isRecord(operation.value)) throw scimInvalid('invalidValue', `Operations[${index}].value must be an object when there is no path`);
    for (const [key, value] of Object.entries(operation.value)) next = setAttribute(next, key, value, false);
  }
  return next;
}

import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../protocol/gateway-error.js';
import type { UserAttributes } from '../store/repositories/scim-users.js';
import { patchUser, readUser } from './user-attributes.js';

const alice: UserAttributes = {
  userName: 'alice@example.com',
  externalId: 'ext-1',
  displayName: 'Alice A',
  givenName: 'Alice',
  familyName: 'A',
  email: 'alice@example.com',
  active: true,
};

function scimTypeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error.metadata?.scimType;
    throw error;
  }
  return undefined;
}

describe('readUser', () => {
  it('keeps the primary e-mail, else the work one, and defaults active to true', () => {
    const user = readUser({
      userName: 'bob',
      emails: [
        { value: 'home@example.com', type: 'home' },
        { value: 'bob@example.com', type: 'work' },
      ],
      name: { givenName: 'Bob' },
      password: 'ignored',
    });
    expect(user).toEqual({
      userName: 'bob',
      externalId: null,
      displayName: null,
      givenName: 'Bob',
      familyName: null,
      email: 'bob@example.com',
      active: true,
    });
  });

  it('refuses a missing userName or a non-boolean active as invalidValue', () => {
    expect(scimTypeOf(() => readUser({ emails: [] }))).toBe('invalidValue');
    expect(scimTypeOf(() => readUser({ userName: 'x', active: 'maybe' }))).toBe('invalidValue');
    expect(scimTypeOf(() => readUser([]))).toBe('invalidSyntax');
  });
});

describe('patchUser', () => {
  it("applies Okta's path-less replace", () => {
    expect(patchUser(alice, { Operations: [{ op: 'replace', value: { active: false } }] }).active).toBe(false);
  });

  it("applies Entra's capitalised ops with paths, string booleans and the work e-mail filter path", () => {
    const next = patchUser(alice, {
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'new@example.com' },
        { op: 'Replace', path: 'name.familyName', value: 'B' },
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'IT' },
      ],
    });
    expect(next).toEqual({ ...alice, email: 'new@example.com', familyName: 'B', active: false });
  });

  it('removes optional attributes and refuses to remove userName or to remove without a path', () => {
    expect(patchUser(alice, { Operations: [{ op: 'remove', path: 'externalId' }] }).externalId).toBeNull();
    expect(scimTypeOf(() => patchUser(alice, { Operations: [{ op: 'remove', path: 'userName' }] }))).toBe('mutability');
    expect(scimTypeOf(() => patchUser(alice, { Operations: [{ op: 'remove' }] }))).toBe('noTarget');
    expect(scimTypeOf(() => patchUser(alice, { Operations: [{ op: 'move', path: 'active' }] }))).toBe('invalidSyntax');
    expect(scimTypeOf(() => patchUser(alice, { Operations: [] }))).toBe('invalidSyntax');
  });
});

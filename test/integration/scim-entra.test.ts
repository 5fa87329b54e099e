import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { accessOf, keysOf, scim, scimWorld } from '../support/scim.js';

/**
 * The requests Microsoft Entra ID's provisioning service sends, with the bodies Microsoft publishes in
 * "Tutorial: Develop and plan provisioning for a SCIM endpoint in Microsoft Entra ID", sections "User
 * operations" and "Group operations" (learn.microsoft.com/en-us/entra/identity/app-provisioning/use-scim-to-provision-users-and-groups):
 * lookups by userName (none, then one), the create with the enterprise extension, PATCH with
 * capitalised ops and paths (emails[type eq "work"].value, name.familyName, userName, active),
 * groups read with excludedAttributes=members and found by displayName, members added and removed
 * by `members` value lists, and the hard delete. Entra sends application/scim+json.
 */
const USER_NAME = 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1';

describe.each(testEngines)('SCIM provisioning as Microsoft Entra ID sends it, on $name', (engine) => {
  let gw: RunningGateway;
  let token: string;
  let workspaceId: string;
  let userId: string;
  let groupId: string;

  beforeAll(async () => {
    gw = await startGateway(engine);
    ({ token, workspaceId } = await scimWorld(gw));
  });
  afterAll(async () => gw?.close());

  it('finds no user by userName (zero results), then creates one with the enterprise extension', async () => {
    const none = await scim(gw, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "non-existent user"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1 });
    const created = await scim(gw, token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: USER_NAME,
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(created.status).toBe(201);
    userId = created.body.id;
    expect(created.body).toMatchObject({
      userName: USER_NAME,
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      active: true,
      emails: [{ value: 'test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com', type: 'work', primary: true }],
      name: { familyName: 'familyName', givenName: 'givenName' },
    });
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: {} });
  });

  it('finds the user by userName and by id', async () => {
    const found = await scim(gw, token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${USER_NAME}"`)}`);
    expect(found.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, Resources: [{ id: userId, userName: USER_NAME }] });
    expect((await scim(gw, token, 'GET', `/Users/${userId}`)).body.id).toBe(userId);
  });

  it('updates multi-valued and single-valued properties by PATCH', async () => {
    const multi = await scim(gw, token, 'PATCH', `/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    });
    expect(multi.status).toBe(200);
    expect(multi.body).toMatchObject({ emails: [{ value: 'updatedemail@microsoft.com' }], name: { familyName: 'updatedFamilyName' } });
    const single = await scim(gw, token, 'PATCH', `/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' }],
    });
    expect(single.body.userName).toBe('5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com');
  });

  it('creates a group with no members, reads it without members and finds it by displayName', async () => {
    const created = await scim(gw, token, 'POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ displayName: 'displayName', externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', members: [] });
    groupId = created.body.id;
    const read = await scim(gw, token, 'GET', `/Groups/${groupId}?excludedAttributes=members`);
    expect(read.body).not.toHaveProperty('members');
    const found = await scim(
      gw,
      token,
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
    );
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: groupId }] });
    expect(found.body.Resources[0]).not.toHaveProperty('members');
  });

  it('adds and removes members by value lists: the mapped workspace follows', async () => {
    const mapping = await call(gw, 'POST', '/scim/group-mappings', {
      key: gw.managementKey,
      body: { scim_group_id: groupId, workspace_id: workspaceId, role: 'member' },
    });
    expect(mapping.status).toBe(201);
    const add = await scim(gw, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: userId }] }],
    });
    expect(add.status).toBe(204);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: { [workspaceId]: 'member' } });

    const rename = await scim(gw, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }],
    });
    expect(rename.status).toBe(204);

    const remove = await scim(gw, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: userId }] }],
    });
    expect(remove.status).toBe(204);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: {} });
  });

  it('disables the user ("active" replaced, as a string as Entra has sent it): access gone at once', async () => {
    await scim(gw, token, 'PATCH', `/Groups/${groupId}`, { Operations: [{ op: 'Add', path: 'members', value: [{ value: userId }] }] });
    const keys = await keysOf(gw, userId);
    const disabled = await scim(gw, token, 'PATCH', `/Users/${userId}`, {
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: null, workspaces: {} });
    expect((await call(gw, 'GET', '/interns', { key: keys.plain })).status).toBe(403);
    expect((await call(gw, 'GET', '/keys', { key: keys.management })).status).toBe(401);
    // Their ordinary key still serves what is not an intern's (spec 5.5: an admin reassigns it).
    expect((await call(gw, 'GET', '/key', { key: keys.plain })).status).toBe(200);
  });

  it('deletes the user and the group; a deleted user is a SCIM 404', async () => {
    expect((await scim(gw, token, 'DELETE', `/Users/${userId}`)).status).toBe(204);
    const gone = await scim(gw, token, 'GET', `/Users/${userId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: 'User not found' });
    expect((await scim(gw, token, 'GET', `/Groups/${groupId}`)).body.members).toEqual([]);
    expect((await scim(gw, token, 'DELETE', `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim(gw, token, 'DELETE', `/Groups/${groupId}`)).status).toBe(404);
  });
});

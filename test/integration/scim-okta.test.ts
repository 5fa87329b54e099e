import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { accessOf, keysOf, scim, scimWorld } from '../support/scim.js';

/**
 * The requests Okta's SCIM 2.0 provisioning sends, in its order and with its bodies, as Okta
 * publishes them: "Okta and SCIM Version 2.0" (developer.okta.com/docs/api/openapi/okta-scim/guides/scim-20):
 * the connection test, the lookup by userName before a create, the create, reads, a profile update by
 * PUT, deactivation and reactivation by a path-less PATCH replace of `active`, and the group push
 * (create, members added by `members` and removed by `members[value eq "…"]`, rename, delete).
 */
describe.each(testEngines)('SCIM provisioning as Okta sends it, on $name', (engine) => {
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

  it('answers the connection test with an empty SCIM list', async () => {
    const answer = await scim(gw, token, 'GET', '/Users?startIndex=1&count=1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(answer.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
  });

  it('finds no user by userName, then creates them as an organization member', async () => {
    const lookup = await scim(
      gw,
      token,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`,
    );
    expect(lookup.body.totalResults).toBe(0);
    const created = await scim(gw, token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'test.user@okta.local',
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(created.status).toBe(201);
    userId = created.body.id;
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'test.user@okta.local',
      externalId: '00ujl29u0le5T6Aj10h7',
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ value: 'test.user@okta.local', primary: true }],
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(created.body).not.toHaveProperty('password');
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: {} });
    const members = await call(gw, 'GET', '/organization/members', { key: gw.managementKey });
    expect(members.body.data.map((m: { email: string }) => m.email)).toContain('test.user@okta.local');
  });

  it('refuses the same userName again, in any case, with a SCIM uniqueness error', async () => {
    const again = await scim(gw, token, 'POST', '/Users', {
      userName: 'TEST.USER@okta.local',
      emails: [{ value: 'other@okta.local', primary: true }],
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '409', scimType: 'uniqueness' });
  });

  it('reads the user by id and by page, and takes a profile update by PUT', async () => {
    expect((await scim(gw, token, 'GET', `/Users/${userId}`)).body.userName).toBe('test.user@okta.local');
    const pageOf = await scim(gw, token, 'GET', '/Users?startIndex=1&count=2');
    expect(pageOf.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, Resources: [{ id: userId }] });
    const put = await scim(gw, token, 'PUT', `/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id: userId,
      userName: 'test.user@okta.local',
      name: { givenName: 'Another', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
      displayName: 'Another User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: { givenName: 'Another' }, displayName: 'Another User', externalId: '00ujl29u0le5T6Aj10h7' });
  });

  it('pushes a group whose mapping puts its members in the mapped workspace, and takes them out when they leave', async () => {
    const created = await scim(gw, token, 'POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Test SCIMv2',
      members: [],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ displayName: 'Test SCIMv2', members: [], meta: { resourceType: 'Group' } });
    groupId = created.body.id;

    const mapping = await call(gw, 'POST', '/scim/group-mappings', {
      key: gw.managementKey,
      body: { scim_group_id: groupId, workspace_id: workspaceId, role: 'admin' },
    });
    expect(mapping.status).toBe(201);

    const added = await scim(gw, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: userId, display: 'test.user@okta.local' }] }],
    });
    expect(added.status).toBe(204);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: { [workspaceId]: 'admin' } });
    expect((await scim(gw, token, 'GET', `/Users/${userId}`)).body.groups).toEqual([
      expect.objectContaining({ value: groupId, display: 'Test SCIMv2' }),
    ]);

    const renamed = await scim(gw, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { id: groupId, displayName: 'Test SCIMv2 renamed' } }],
    });
    expect(renamed.status).toBe(204);
    const read = await scim(gw, token, 'GET', `/Groups/${groupId}`);
    expect(read.body).toMatchObject({ displayName: 'Test SCIMv2 renamed', members: [{ value: userId, display: 'test.user@okta.local' }] });

    const removed = await scim(gw, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'remove', path: `members[value eq "${userId}"]` }],
    });
    expect(removed.status).toBe(204);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: {} });
  });

  it('deactivates the user at once: memberships gone, their management keys disabled, their keys refused by interns (spec 5.5)', async () => {
    await scim(gw, token, 'PATCH', `/Groups/${groupId}`, { Operations: [{ op: 'add', path: 'members', value: [{ value: userId }] }] });
    const keys = await keysOf(gw, userId);
    expect((await call(gw, 'GET', '/interns', { key: keys.plain })).status).toBe(200);
    expect((await call(gw, 'GET', '/keys', { key: keys.management })).status).toBe(200);

    const deactivated = await scim(gw, token, 'PATCH', `/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: null, workspaces: {} });
    const interns = await call(gw, 'GET', '/interns', { key: keys.plain });
    expect(interns.status).toBe(403);
    expect(interns.headers.get('x-error-code')).toBe('GW_ERR_KEY_CREATOR_NOT_MEMBER');
    const management = await call(gw, 'GET', '/keys', { key: keys.management });
    expect(management.status).toBe(401);
    expect(management.headers.get('x-error-code')).toBe('GW_ERR_API_KEY_DISABLED');
    // Okta looks a deactivated user up by userName before reactivating it: it is still listed, inactive.
    const lookup = await scim(
      gw,
      token,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`,
    );
    expect(lookup.body.Resources).toEqual([expect.objectContaining({ id: userId, active: false })]);
  });

  it('reactivates the user: member again, with the workspaces their groups map', async () => {
    const reactivated = await scim(gw, token, 'PATCH', `/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(reactivated.body.active).toBe(true);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: { [workspaceId]: 'admin' } });
  });

  it('deletes the group: its members lose the workspace it mapped', async () => {
    expect((await scim(gw, token, 'DELETE', `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim(gw, token, 'GET', `/Groups/${groupId}`)).status).toBe(404);
    expect(await accessOf(gw, userId)).toEqual({ organizationRole: 'member', workspaces: {} });
  });
});

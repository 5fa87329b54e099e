import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../src/store/repositories/members.js';
import { newOrganizationId, newUserId } from '../../src/util/ids.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { accessOf, scim, scimWorld } from '../support/scim.js';

/** The SCIM token's life, who may manage SCIM, mappings' roles and deletion, and SCIM's error answers. */
describe.each(testEngines)('SCIM management and errors on $name', (engine) => {
  let gw: RunningGateway;
  let token: string;
  let workspaceId: string;

  beforeAll(async () => {
    gw = await startGateway(engine);
    ({ token, workspaceId } = await scimWorld(gw));
  });
  afterAll(async () => gw?.close());

  const provision = async (userName: string) =>
    (await scim(gw, token, 'POST', '/Users', { userName, emails: [{ value: userName, primary: true }] })).body.id as string;
  const group = async (members: string[]) =>
    (await scim(gw, token, 'POST', '/Groups', { displayName: `g-${randomUUID()}`, members: members.map((value) => ({ value })) })).body
      .id as string;

  it('rotates the token: the one before is refused at once, in SCIM terms; a deleted token leaves none', async () => {
    const rotated = await call(gw, 'POST', '/scim/token', { key: gw.managementKey });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toEqual({
      label: expect.stringMatching(/^scim-mg-v1-...\.\.\..{4}$/),
      created_at: expect.any(String),
      created_by: expect.any(String),
    });
    const old = await scim(gw, token, 'GET', '/Users');
    expect(old.status).toBe(401);
    expect(old.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(old.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
    expect((await scim(gw, rotated.body.token, 'GET', '/Users')).status).toBe(200);
    const stored = await gw.store.db.selectFrom('scim_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(rotated.body.token);
    expect((await call(gw, 'DELETE', '/scim/token', { key: gw.managementKey })).status).toBe(200);
    expect((await scim(gw, rotated.body.token, 'GET', '/Users')).status).toBe(401);
    token = (await call(gw, 'POST', '/scim/token', { key: gw.managementKey })).body.token;
  });

  it("refuses a plain member's management key and a workspace-scoped one", async () => {
    const member = await addMember(
      gw.store.db,
      gw.organizationId,
      { email: 'plain@example.com', role: 'member' },
      newUserId,
      new Date().toISOString(),
    );
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'member mgmt', creator_user_id: member.id } });
    await gw.store.db.updateTable('api_keys').set({ is_management: 1 }).where('hash', '=', created.body.data.hash).execute();
    for (const [method, path] of [
      ['GET', '/scim/group-mappings'],
      ['GET', '/scim/groups'],
      ['POST', '/scim/token'],
    ] as const) {
      const refused = await call(gw, method, path, { key: created.body.key });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.headers.get('x-error-code')).toBe('GW_ERR_ORGANIZATION_ADMIN_REQUIRED');
    }
    const scoped = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'scoped' } });
    await gw.store.db
      .updateTable('api_keys')
      .set({ is_management: 1, management_scope: 'workspace' })
      .where('hash', '=', scoped.body.data.hash)
      .execute();
    expect((await call(gw, 'GET', '/scim/group-mappings', { key: scoped.body.key })).status).toBe(403);
  });

  it("refuses a mapping to another organization's workspace or group as not found", async () => {
    const otherOrg = newOrganizationId();
    const otherWorkspace = randomUUID();
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: otherOrg, name: 'Other', slug: `other-${otherWorkspace}`, is_default: 0, created_at: now })
      .execute();
    await gw.store.db
      .insertInto('workspaces')
      .values({
        id: otherWorkspace,
        organization_id: otherOrg,
        name: 'Theirs',
        slug: 'theirs',
        is_default: 0,
        created_at: now,
        description: null,
        default_text_model: null,
        default_image_model: null,
        default_provider_sort: null,
        default_guardrail_id: null,
        io_logging_api_key_ids: null,
        created_by: null,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    const mine = await group([]);
    const toTheirs = await call(gw, 'POST', '/scim/group-mappings', {
      key: gw.managementKey,
      body: { scim_group_id: mine, workspace_id: otherWorkspace, role: 'member' },
    });
    expect(toTheirs.status).toBe(404);
    expect(toTheirs.body.error.message).toContain(otherWorkspace);
    const unknownGroup = await call(gw, 'POST', '/scim/group-mappings', {
      key: gw.managementKey,
      body: { scim_group_id: randomUUID(), workspace_id: workspaceId, role: 'member' },
    });
    expect(unknownGroup.status).toBe(404);
  });

  it('forgets a mapping when its workspace is deleted', async () => {
    const slug = `team-${randomUUID().slice(0, 8)}`;
    const created = await call(gw, 'POST', '/workspaces', { key: gw.managementKey, body: { name: 'Team', slug } });
    const teamId = created.body.data.id as string;
    const ada = await provision(`ada-${slug}@example.com`);
    const mapping = await call(gw, 'POST', '/scim/group-mappings', {
      key: gw.managementKey,
      body: { scim_group_id: await group([ada]), workspace_id: teamId, role: 'member' },
    });
    expect(mapping.status).toBe(201);
    expect(await accessOf(gw, ada)).toMatchObject({ workspaces: { [teamId]: 'member' } });
    expect((await call(gw, 'DELETE', `/workspaces/${teamId}`, { key: gw.managementKey })).status).toBe(200);
    const listed = await call(gw, 'GET', '/scim/group-mappings', { key: gw.managementKey });
    expect(listed.body.data.map((m: { id: string }) => m.id)).not.toContain(mapping.body.data.id);
  });

  it('links a person another organization knows without renaming them there', async () => {
    const other = newOrganizationId();
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: other, name: 'Elsewhere', slug: `elsewhere-${other}`, is_default: 0, created_at: now })
      .execute();
    const theirs = await addMember(gw.store.db, other, { email: 'shared@example.com', role: 'admin', first_name: 'Sam' }, newUserId, now);
    const created = await scim(gw, token, 'POST', '/Users', {
      userName: 'shared@example.com',
      name: { givenName: 'Samantha' },
      emails: [{ value: 'shared@example.com', primary: true }],
    });
    expect(created.body).toMatchObject({ id: theirs.id, name: { givenName: 'Samantha' } });
    await scim(gw, token, 'PATCH', `/Users/${theirs.id}`, {
      Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'sam@new.example' }],
    });
    expect((await scim(gw, token, 'GET', `/Users/${theirs.id}`)).body.emails).toEqual([
      { value: 'sam@new.example', type: 'work', primary: true },
    ]);
    const user = await gw.store.db.selectFrom('users').selectAll().where('id', '=', theirs.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: 'shared@example.com', first_name: 'Sam' });
    expect(await accessOf(gw, theirs.id)).toMatchObject({ organizationRole: 'member' });
  });

  it("changes the members' role with the mapping's, and on deletion removes them or, with keep_members, hands them over", async () => {
    const ada = await provision('ada@example.com');
    const groupId = await group([ada]);
    const mapping = (
      await call(gw, 'POST', '/scim/group-mappings', {
        key: gw.managementKey,
        body: { scim_group_id: groupId, workspace_id: workspaceId, role: 'member' },
      })
    ).body.data;
    expect(await accessOf(gw, ada)).toMatchObject({ workspaces: { [workspaceId]: 'member' } });
    const patched = await call(gw, 'PATCH', `/scim/group-mappings/${mapping.id}`, { key: gw.managementKey, body: { role: 'admin' } });
    expect(patched.body.data).toMatchObject({ id: mapping.id, role: 'admin' });
    expect(await accessOf(gw, ada)).toMatchObject({ workspaces: { [workspaceId]: 'admin' } });

    expect((await call(gw, 'DELETE', `/scim/group-mappings/${mapping.id}`, { key: gw.managementKey })).status).toBe(400);
    expect((await call(gw, 'DELETE', `/scim/group-mappings/${mapping.id}?keep_members=true`, { key: gw.managementKey })).body).toEqual({
      deleted: true,
    });
    expect(await accessOf(gw, ada)).toMatchObject({ workspaces: { [workspaceId]: 'admin' } });
    // Kept as added by hand: leaving the group no longer takes it away.
    await scim(gw, token, 'PATCH', `/Groups/${groupId}`, { Operations: [{ op: 'remove', path: 'members' }] });
    expect(await accessOf(gw, ada)).toMatchObject({ workspaces: { [workspaceId]: 'admin' } });

    const bob = await provision('bob@example.com');
    const second = await group([bob]);
    const removed = (
      await call(gw, 'POST', '/scim/group-mappings', {
        key: gw.managementKey,
        body: { scim_group_id: second, workspace_id: workspaceId, role: 'member' },
      })
    ).body.data;
    expect(await accessOf(gw, bob)).toMatchObject({ workspaces: { [workspaceId]: 'member' } });
    await call(gw, 'DELETE', `/scim/group-mappings/${removed.id}?keep_members=false`, { key: gw.managementKey });
    expect(await accessOf(gw, bob)).toEqual({ organizationRole: 'member', workspaces: {} });
    const listed = await call(gw, 'GET', '/scim/groups', { key: gw.managementKey });
    expect(listed.body.data.map((g: { id: string }) => g.id)).toEqual(expect.arrayContaining([groupId, second]));
  });

  it('answers bad SCIM requests with SCIM errors naming the rule', async () => {
    const filter = await scim(gw, token, 'GET', `/Users?filter=${encodeURIComponent('userName co "a"')}`);
    expect(filter.status).toBe(400);
    expect(filter.body).toMatchObject({ status: '400', scimType: 'invalidFilter', detail: expect.stringContaining('co') });
    const attribute = await scim(gw, token, 'GET', `/Users?filter=${encodeURIComponent('title eq "a"')}`);
    expect(attribute.body).toMatchObject({ scimType: 'invalidFilter', detail: expect.stringContaining('userName') });
    const stranger = await scim(gw, token, 'POST', '/Groups', { displayName: 'x', members: [{ value: 'user_not_provisioned' }] });
    expect(stranger.body).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
      detail: expect.stringContaining('user_not_provisioned'),
    });
    const tooMany = await scim(gw, token, 'PATCH', `/Groups/${await group([])}`, {
      Operations: Array.from({ length: 101 }, () => ({ op: 'add', path: 'members', value: [] })),
    });
    expect(tooMany.body).toMatchObject({ status: '400', scimType: 'tooMany' });
    const malformed = await call(gw, 'POST', '/scim/v2/Users', {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      body: '{"userName":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    const twice = await scim(gw, token, 'GET', '/Users?filter=a&filter=b');
    expect(twice.body).toMatchObject({ status: '400', detail: 'filter must be given once' });
    const unknown = await scim(gw, token, 'GET', '/Nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-error-code')).toBe('GW_ERR_ROUTE_NOT_FOUND');
    expect(unknown.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    const missing = await scim(gw, token, 'PATCH', `/Users/${newUserId()}`, {
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(missing.status).toBe(404);
  });

  it('describes itself: ServiceProviderConfig and ResourceTypes', async () => {
    const config = await scim(gw, token, 'GET', '/ServiceProviderConfig');
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 100 },
      bulk: { supported: false },
    });
    const types = await scim(gw, token, 'GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { id: string }) => t.id)).toEqual(['User', 'Group']);
  });
});

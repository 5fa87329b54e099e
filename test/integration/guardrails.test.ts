import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

const OTHER_WORKSPACE = '33333333-3333-4333-8333-333333333333';

describe.each(testEngines)('guardrails API on $name', (engine) => {
  let gw: RunningGateway;
  let userKey: { key: string; hash: string };
  let otherOrgKey: string;
  let ownerId: string;
  const as = (key: string) => ({
    get: (path: string) => call(gw, 'GET', path, { key }),
    post: (path: string, body?: unknown) => call(gw, 'POST', path, { key, ...(body !== undefined ? { body } : {}) }),
    patch: (path: string, body: unknown) => call(gw, 'PATCH', path, { key, body }),
    delete: (path: string) => call(gw, 'DELETE', path, { key }),
  });
  const admin = () => as(gw.managementKey);

  beforeAll(async () => {
    gw = await startGateway(engine);
    const created = (await admin().post('/keys', { name: 'user' })).body;
    userKey = { key: created.key, hash: created.data.hash };
    ownerId = (await admin().get('/organization/members')).body.data[0].id;
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: now })
      .execute();
    await gw.store.db
      .insertInto('workspaces')
      .values({ id: OTHER_WORKSPACE, organization_id: 'org_other', name: 'Default', slug: 'default', is_default: 1, created_at: now })
      .execute();
    otherOrgKey = (
      await createApiKey(gw.store.db, { organizationId: 'org_other', workspaceId: OTHER_WORKSPACE, name: 'Other', isManagement: true }, now)
    ).key;
  });
  afterAll(() => gw.close());

  it('creates, gets, lists with paging, updates with replace semantics, and deletes', async () => {
    const created = await admin().post('/guardrails', {
      name: 'Production',
      description: 'prod',
      allowed_providers: ['alpha'],
      content_filters: [{ pattern: 'sk-[a-z]+', action: 'redact', label: '[KEY]' }],
      content_filter_builtins: [{ slug: 'email', action: 'redact', label: 'ignored' }],
      enforce_zdr: false,
      limit_usd: 50,
      reset_interval: 'monthly',
      blocked_keywords: ['falcon'],
      max_completion_tokens: 500,
    });
    expect(created.status).toBe(201);
    const g = created.body.data;
    expect(g).toMatchObject({
      name: 'Production',
      description: 'prod',
      allowed_providers: ['alpha'],
      allowed_models: null,
      content_filter_builtins: [{ slug: 'email', action: 'redact', label: '[EMAIL]' }],
      enforce_zdr: null,
      enforce_zdr_openai: false,
      limit_usd: 50,
      reset_interval: 'monthly',
      include_byok_in_budgets: false,
      blocked_keywords: ['falcon'],
      max_completion_tokens: 500,
      updated_at: null,
    });
    expect(g.workspace_id).toMatch(/^[0-9a-f-]{36}$/);

    expect((await admin().get(`/guardrails/${g.id}`)).body.data).toEqual(g);
    await admin().post('/guardrails', { name: 'Second' });
    const page = await admin().get('/guardrails?offset=1&limit=1');
    expect(page.body).toMatchObject({ total_count: 2, data: [{ name: 'Second' }] });

    const updated = await admin().patch(`/guardrails/${g.id}`, {
      name: 'Renamed',
      allowed_providers: ['beta', 'gamma'],
      content_filters: null,
    });
    expect(updated.body.data).toMatchObject({
      name: 'Renamed',
      allowed_providers: ['beta', 'gamma'],
      content_filters: null,
      blocked_keywords: ['falcon'],
      description: 'prod',
    });
    expect(updated.body.data.updated_at).not.toBeNull();

    expect((await admin().delete(`/guardrails/${g.id}`)).body).toEqual({ deleted: true });
    expect((await admin().get(`/guardrails/${g.id}`)).status).toBe(404);
    expect((await admin().delete(`/guardrails/${g.id}`)).status).toBe(404);
  });

  it('names the field and the rule of an invalid guardrail', async () => {
    const message = async (body: unknown) => (await admin().post('/guardrails', body)).body.error.message;
    expect(await message({ name: 'x', content_filters: [{ pattern: '(a+)\\1', action: 'block' }] })).toMatch(
      /^content_filters\[0\]\.pattern "\(a\+\)\\\\1" is not a regular expression this gateway runs in linear time/,
    );
    expect(await message({ name: 'x', content_filter_builtins: [{ slug: 'person-name', action: 'block' }] })).toMatch(
      /^content_filter_builtins\[0\]\.slug must be one of/,
    );
    expect(await message({ name: '' })).toBe('name must be at least 1 character long');
    expect(await message({ name: 'x', allowed_data_regions: ['eu'] })).toBe('Request body has an unknown property "allowed_data_regions"');
    expect(await message({ name: 'x', max_prompt_tokens: 0 })).toBe('max_prompt_tokens must be >= 1');
    expect(await message({ name: 'x', workspace_id: OTHER_WORKSPACE })).toBe(
      `workspace_id ${OTHER_WORKSPACE} is not a workspace of this organization`,
    );
    expect((await admin().get('/guardrails/not-a-uuid')).status).toBe(400);
  });

  it('requires a management key', async () => {
    expect((await as(userKey.key).get('/guardrails')).status).toBe(403);
    expect((await as(userKey.key).post('/guardrails', { name: 'x' })).body.error.message).toBe(
      'Only management keys can perform this operation',
    );
    expect((await call(gw, 'GET', '/guardrails')).status).toBe(401);
  });

  it('assigns and unassigns keys (one guardrail per key) and members, and lists assignments', async () => {
    const a = (await admin().post('/guardrails', { name: 'A' })).body.data.id;
    const b = (await admin().post('/guardrails', { name: 'B' })).body.data.id;
    expect((await admin().post(`/guardrails/${a}/assignments/keys`, { key_hashes: [userKey.hash, userKey.hash] })).body).toEqual({
      assigned_count: 1,
    });
    const keyAssignments = await admin().get(`/guardrails/${a}/assignments/keys`);
    expect(keyAssignments.body).toMatchObject({
      total_count: 1,
      data: [{ guardrail_id: a, key_hash: userKey.hash, key_name: 'user', assigned_by: ownerId }],
    });
    expect(keyAssignments.body.data[0].key_label).toMatch(/^sk-mg-v1-.*\.\.\./);

    // A key holds one guardrail: assigning B replaces A.
    await admin().post(`/guardrails/${b}/assignments/keys`, { key_hashes: [userKey.hash] });
    expect((await admin().get(`/guardrails/${a}/assignments/keys`)).body.total_count).toBe(0);
    expect((await admin().get('/guardrails/assignments/keys')).body).toMatchObject({ total_count: 1, data: [{ guardrail_id: b }] });

    expect((await admin().post(`/guardrails/${a}/assignments/members`, { member_user_ids: [ownerId] })).body).toEqual({
      assigned_count: 1,
    });
    expect((await admin().post(`/guardrails/${b}/assignments/members`, { member_user_ids: [ownerId] })).body).toEqual({
      assigned_count: 1,
    });
    const members = await admin().get('/guardrails/assignments/members?limit=10');
    expect(members.body.total_count).toBe(2);
    expect(members.body.data[0]).toMatchObject({ user_id: ownerId, organization_id: gw.organizationId, guardrail_id: a });

    expect((await admin().post(`/guardrails/${a}/assignments/members/remove`, { member_user_ids: [ownerId, 'user_nobody'] })).body).toEqual(
      { unassigned_count: 1 },
    );
    expect((await admin().post(`/guardrails/${b}/assignments/keys/remove`, { key_hashes: [userKey.hash] })).body).toEqual({
      unassigned_count: 1,
    });

    expect((await admin().post(`/guardrails/${a}/assignments/keys`, { key_hashes: ['nope'] })).body.error.message).toBe(
      'key_hashes[0] nope is not an API key of this organization',
    );
    expect((await admin().post(`/guardrails/${a}/assignments/members`, { member_user_ids: [] })).body.error.message).toBe(
      'member_user_ids must have at least 1 item',
    );
  });

  it('assigns to workspaces and to the whole organization', async () => {
    const g = (await admin().post('/guardrails', { name: 'Wide' })).body.data;
    expect((await admin().post(`/guardrails/${g.id}/assignments/workspaces`, { workspace_ids: [g.workspace_id] })).body).toEqual({
      assigned_count: 1,
    });
    expect((await admin().get(`/guardrails/${g.id}/assignments/workspaces`)).body.data).toMatchObject([{ workspace_id: g.workspace_id }]);
    expect((await admin().post(`/guardrails/${g.id}/assignments/organization`)).body).toEqual({ assigned_count: 1 });
    expect((await admin().get('/guardrails/assignments/organization')).body.data).toMatchObject([
      { guardrail_id: g.id, organization_id: gw.organizationId },
    ]);
    expect((await admin().post(`/guardrails/${g.id}/assignments/organization/remove`)).body).toEqual({ unassigned_count: 1 });
    expect((await admin().post(`/guardrails/${g.id}/assignments/workspaces`, { workspace_ids: [OTHER_WORKSPACE] })).status).toBe(400);
    // Deleting the guardrail takes its assignments with it.
    await admin().delete(`/guardrails/${g.id}`);
    expect((await admin().get('/guardrails/assignments/workspaces')).body.total_count).toBe(0);
  });

  it('hides guardrails from other organizations', async () => {
    const g = (await admin().post('/guardrails', { name: 'Private' })).body.data;
    const other = as(otherOrgKey);
    expect((await other.get(`/guardrails/${g.id}`)).status).toBe(404);
    expect((await other.patch(`/guardrails/${g.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.delete(`/guardrails/${g.id}`)).status).toBe(404);
    expect((await other.post(`/guardrails/${g.id}/assignments/organization`)).status).toBe(404);
    expect((await other.get(`/guardrails/${g.id}/assignments/keys`)).status).toBe(404);
    expect((await other.get('/guardrails')).body).toEqual({ data: [], total_count: 0 });
    const theirs = (await other.post('/guardrails', { name: 'Theirs' })).body.data;
    expect((await other.post(`/guardrails/${theirs.id}/assignments/keys`, { key_hashes: [userKey.hash] })).status).toBe(400);
  });
});

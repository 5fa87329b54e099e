import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';

describe.each(testEngines)('API keys on $name', (engine) => {
  const time = testClock();
  let gw: RunningGateway;
  const mk = () => gw.managementKey;

  beforeAll(async () => {
    gw = await startGateway(engine, { clock: time.clock });
  });
  afterAll(async () => {
    await gw.close();
  });

  const create = (body: unknown) => call(gw, 'POST', '/keys', { key: mk(), body });

  it('creates a key: 201 with the record and the key shown once', async () => {
    const res = await create({ name: 'Production', limit: 50, limit_reset: 'monthly', include_byok_in_limit: true });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^sk-mg-v1-[0-9a-f]{64}$/);
    expect(res.body.data).toMatchObject({
      name: 'Production',
      disabled: false,
      limit: 50,
      limit_remaining: 50,
      limit_reset: 'monthly',
      include_byok_in_limit: true,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      expires_at: null,
    });
    expect(res.body.data.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.data.label).toBe(`sk-mg-v1-${res.body.key.slice(9, 12)}...${res.body.key.slice(-4)}`);
    expect(res.body.data.workspace_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.data.creator_user_id).toBe('string');
    const fetched = await call(gw, 'GET', `/keys/${res.body.data.hash}`, { key: mk() });
    expect(fetched.body.data).not.toHaveProperty('key');
    expect(JSON.stringify(fetched.body)).not.toContain(res.body.key);
  });

  it('stores only the SHA-256 of the key', async () => {
    const res = await create({ name: 'Hashed' });
    const rows = await gw.store.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(res.body.key);
  });

  it.each([
    [{}, 'name is required'],
    [{ name: '' }, 'name must be at least 1 character long'],
    [{ name: 5 }, 'name must be of type string'],
    [{ name: 'x', limit_reset: 'yearly' }, 'limit_reset must be one of "daily", "weekly", "monthly", null'],
    [{ name: 'x', limit: 'ten' }, 'limit'],
    [{ name: 'x', limit: -1 }, 'limit must be >= 0'],
    [{ name: 'x', workspace_id: 'not-a-uuid' }, 'workspace_id must be a valid uuid'],
    [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at must be a valid date-time'],
    [{ name: 'x', expires_at: '2030-01-01T00:00:00+02:00' }, 'expires_at must be an ISO 8601 timestamp in UTC'],
    [{ name: 'x', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at must be in the future'],
    [{ name: 'x', creator_user_id: '' }, 'creator_user_id must be at least 1 character long'],
    [{ name: 'x', creator_user_id: 'user_nobody' }, 'creator_user_id user_nobody is not a member of this organization'],
    [{ name: 'x', workspace_id: '00000000-0000-4000-8000-000000000000' }, 'is not a workspace of this organization'],
  ])('refuses %j with 400 naming the field and rule', async (body, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it('accepts UTC written as +00:00 and normalises it', async () => {
    const res = await create({ name: 'Expiring', expires_at: '2030-01-01T00:00:00+00:00' });
    expect(res.status).toBe(201);
    expect(res.body.data.expires_at).toBe('2030-01-01T00:00:00.000Z');
  });

  it('creates on behalf of a member of the organization', async () => {
    const members = await call(gw, 'GET', '/organization/members', { key: mk() });
    const owner = members.body.data[0].id;
    const res = await create({ name: 'For owner', creator_user_id: owner });
    expect(res.status).toBe(201);
    expect(res.body.data.creator_user_id).toBe(owner);
  });

  it('lists keys of the default workspace, disabled ones only when asked', async () => {
    const a = await create({ name: 'List A' });
    await call(gw, 'PATCH', `/keys/${a.body.data.hash}`, { key: mk(), body: { disabled: true } });
    const plain = await call(gw, 'GET', '/keys', { key: mk() });
    expect(plain.status).toBe(200);
    expect(plain.body.data.map((k: { hash: string }) => k.hash)).not.toContain(a.body.data.hash);
    const all = await call(gw, 'GET', '/keys?include_disabled=true', { key: mk() });
    expect(all.body.data.map((k: { hash: string }) => k.hash)).toContain(a.body.data.hash);
    const paged = await call(gw, 'GET', '/keys?include_disabled=true&offset=1', { key: mk() });
    expect(paged.body.data.length).toBe(all.body.data.length - 1);
    expect((await call(gw, 'GET', '/keys?offset=-1', { key: mk() })).body.error.message).toBe('query parameter offset must be >= 0');
  });

  it('updates name, limit, reset and byok flag', async () => {
    const { body } = await create({ name: 'Before' });
    time.advance(1000);
    const res = await call(gw, 'PATCH', `/keys/${body.data.hash}`, {
      key: mk(),
      body: { name: 'After', limit: 10, limit_reset: 'daily', include_byok_in_limit: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'After',
      limit: 10,
      limit_remaining: 10,
      limit_reset: 'daily',
      include_byok_in_limit: true,
    });
    expect(res.body.data.updated_at > res.body.data.created_at).toBe(true);
    const cleared = await call(gw, 'PATCH', `/keys/${body.data.hash}`, { key: mk(), body: { limit: null, limit_reset: null } });
    expect(cleared.body.data).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null });
    const bad = await call(gw, 'PATCH', `/keys/${body.data.hash}`, { key: mk(), body: { disabled: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('disabled must be of type boolean');
  });

  it('refuses a disabled key on its next request, and accepts it again when re-enabled', async () => {
    const { body } = await create({ name: 'Toggle' });
    expect((await call(gw, 'GET', '/key', { key: body.key })).status).toBe(200);
    await call(gw, 'PATCH', `/keys/${body.data.hash}`, { key: mk(), body: { disabled: true } });
    const refused = await call(gw, 'GET', '/key', { key: body.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('API key is disabled');
    await call(gw, 'PATCH', `/keys/${body.data.hash}`, { key: mk(), body: { disabled: false } });
    expect((await call(gw, 'GET', '/key', { key: body.key })).status).toBe(200);
  });

  it('refuses a deleted key at once; deleting answers {deleted: true}', async () => {
    const { body } = await create({ name: 'Doomed' });
    expect((await call(gw, 'GET', '/key', { key: body.key })).status).toBe(200);
    const del = await call(gw, 'DELETE', `/keys/${body.data.hash}`, { key: mk() });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    const after = await call(gw, 'GET', '/key', { key: body.key });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe('Invalid API key');
    expect((await call(gw, 'DELETE', `/keys/${body.data.hash}`, { key: mk() })).status).toBe(404);
    expect((await call(gw, 'GET', `/keys/${body.data.hash}`, { key: mk() })).status).toBe(404);
  });

  it('refuses a key once it has expired', async () => {
    const { body } = await create({ name: 'Short-lived', expires_at: new Date(time.clock().getTime() + 60_000).toISOString() });
    expect((await call(gw, 'GET', '/key', { key: body.key })).status).toBe(200);
    time.advance(61_000);
    const res = await call(gw, 'GET', '/key', { key: body.key });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('API key has expired');
  });

  it('shows the calling key its own record', async () => {
    const { body } = await create({ name: 'Self', limit: 3 });
    const res = await call(gw, 'GET', '/key', { key: body.key });
    expect(res.body.data).toMatchObject({
      label: body.data.label,
      limit: 3,
      limit_remaining: 3,
      is_management_key: false,
      is_free_tier: false,
      usage: 0,
    });
  });

  describe('authentication', () => {
    it('answers 401 without the header', async () => {
      const res = await call(gw, 'GET', '/keys');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 401, message: 'Missing Authentication header' } });
    });

    it('answers 401 for a malformed header and an unknown key', async () => {
      expect((await call(gw, 'GET', '/keys', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
      const res = await call(gw, 'GET', '/keys', { key: 'sk-mg-v1-nope' });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('Invalid API key');
    });

    it('answers 401 before looking at the body', async () => {
      const res = await call(gw, 'POST', '/keys', { body: '{not json' });
      expect(res.status).toBe(401);
    });

    it('answers 403 when a normal key asks for a management operation', async () => {
      const { body } = await create({ name: 'Normal' });
      for (const [method, path] of [
        ['GET', '/keys'],
        ['POST', '/keys'],
        ['GET', `/keys/${body.data.hash}`],
        ['PATCH', `/keys/${body.data.hash}`],
        ['DELETE', `/keys/${body.data.hash}`],
        ['GET', '/organization/members'],
      ] as const) {
        const res = await call(gw, method, path, {
          key: body.key,
          ...(method === 'POST' || method === 'PATCH' ? { body: { name: 'x' } } : {}),
        });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.message).toBe('Only management keys can perform this operation');
      }
    });
  });
});

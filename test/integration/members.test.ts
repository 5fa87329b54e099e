import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../src/store/repositories/members.js';
import { newUserId } from '../../src/util/ids.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

describe.each(testEngines)('organization members on $name', (engine) => {
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway(engine);
    for (let i = 0; i < 120; i++) {
      await addMember(
        gw.store.db,
        gw.organizationId,
        {
          email: `person${String(i).padStart(3, '0')}@example.com`,
          role: i % 10 === 0 ? 'admin' : 'member',
          first_name: `P${i}`,
          last_name: 'Doe',
        },
        newUserId,
        new Date(Date.now() + 60_000 + i * 1000).toISOString(),
      );
    }
  });
  afterAll(async () => {
    await gw.close();
  });

  const list = (query = '') => call(gw, 'GET', `/organization/members${query}`, { key: gw.managementKey });

  it('pages through every member with offset and limit', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.total_count).toBe(121);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      email: 'owner@localhost',
      first_name: 'Owner',
      last_name: null,
      role: 'org:admin',
    });
    const seen = new Set<string>();
    for (let offset = 0; offset < 121; offset += 100) {
      const page = await list(`?offset=${offset}&limit=100`);
      for (const m of page.body.data) seen.add(m.id);
    }
    expect(seen.size).toBe(121);
    const last = await list('?offset=120&limit=100');
    expect(last.body.data).toHaveLength(1);
    expect(last.body.data[0]).toMatchObject({ email: 'person119@example.com', role: 'org:member' });
  });

  it.each([
    ['?limit=0', 'query parameter limit must be >= 1'],
    ['?limit=101', 'query parameter limit must be <= 100'],
    ['?offset=-1', 'query parameter offset must be >= 0'],
    ['?limit=ten', 'query parameter limit must be of type integer'],
  ])('refuses %s with 400', async (query, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
  });

  it('accepts the bounds 1 and 100', async () => {
    expect((await list('?limit=1')).body.data).toHaveLength(1);
    expect((await list('?limit=100')).body.data).toHaveLength(100);
  });

  it('adds a member by e-mail address, changes their role and names, and removes them; the owner is neither changed nor removed', async () => {
    const as = { key: gw.managementKey };
    const added = await call(gw, 'POST', '/organization/members', {
      ...as,
      body: { email: 'Ada@Example.com', role: 'admin', first_name: 'Ada' },
    });
    expect(added.status).toBe(201);
    const ada = added.body.data as { id: string };
    expect(added.body.data).toEqual({
      id: expect.any(String),
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: null,
      role: 'org:admin',
    });
    const changed = await call(gw, 'PATCH', `/organization/members/${ada.id}`, { ...as, body: { role: 'member', last_name: 'Lovelace' } });
    expect(changed.body.data).toEqual({ ...added.body.data, last_name: 'Lovelace', role: 'org:member' });
    const everyone = [...(await list('?limit=100')).body.data, ...(await list('?offset=100&limit=100')).body.data];
    expect(everyone.filter((m: { email: string }) => m.email === 'ada@example.com')).toEqual([changed.body.data]);

    const owner = (await list('?limit=1')).body.data[0] as { id: string; email: string };
    for (const refused of [
      await call(gw, 'PATCH', `/organization/members/${owner.id}`, { ...as, body: { role: 'member' } }),
      await call(gw, 'DELETE', `/organization/members/${owner.id}`, as),
      await call(gw, 'POST', '/organization/members', { ...as, body: { email: owner.email, role: 'member' } }),
    ]) {
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^the organization's owner cannot be/);
    }
    const bad = await call(gw, 'POST', '/organization/members', { ...as, body: { email: 'not an address' } });
    expect([bad.status, bad.body.error.message]).toEqual([400, expect.stringContaining('email')]);
    expect((await call(gw, 'PATCH', `/organization/members/${ada.id}`, { ...as, body: {} })).status).toBe(400);

    expect((await call(gw, 'DELETE', `/organization/members/${ada.id}`, as)).body).toEqual({ deleted: true });
    expect((await list()).body.total_count).toBe(121);
    expect((await call(gw, 'DELETE', `/organization/members/${ada.id}`, as)).status).toBe(404);
  });
});

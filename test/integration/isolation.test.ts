import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/** A second organization in the same database: neither sees nor changes the other's rows. */
describe.each(testEngines)('organization isolation on $name', (engine) => {
  let gw: RunningGateway;
  let otherKey: string;
  let otherWorkspace: string;
  let mine: { hash: string };

  beforeAll(async () => {
    gw = await startGateway(engine);
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: now })
      .execute();
    otherWorkspace = '11111111-1111-4111-8111-111111111111';
    await gw.store.db
      .insertInto('workspaces')
      .values({ id: otherWorkspace, organization_id: 'org_other', name: 'Default', slug: 'default', is_default: 1, created_at: now })
      .execute();
    otherKey = (
      await createApiKey(
        gw.store.db,
        { organizationId: 'org_other', workspaceId: otherWorkspace, name: 'Other mgmt', isManagement: true },
        now,
      )
    ).key;
    mine = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'Mine' } })).body.data;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('hides another organization’s keys as if absent', async () => {
    expect((await call(gw, 'GET', `/keys/${mine.hash}`, { key: otherKey })).status).toBe(404);
    expect((await call(gw, 'PATCH', `/keys/${mine.hash}`, { key: otherKey, body: { disabled: true } })).status).toBe(404);
    expect((await call(gw, 'DELETE', `/keys/${mine.hash}`, { key: otherKey })).status).toBe(404);
    const list = await call(gw, 'GET', '/keys', { key: otherKey });
    expect(list.body.data.map((k: { hash: string }) => k.hash)).not.toContain(mine.hash);
    const still = await call(gw, 'GET', `/keys/${mine.hash}`, { key: gw.managementKey });
    expect(still.body.data.disabled).toBe(false);
  });

  it('refuses another organization’s workspace as if absent', async () => {
    const res = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'x', workspace_id: otherWorkspace } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`workspace_id ${otherWorkspace} is not a workspace of this organization`);
  });

  it('lists only its own members', async () => {
    const res = await call(gw, 'GET', '/organization/members', { key: otherKey });
    expect(res.body).toEqual({ data: [], total_count: 0 });
  });
});

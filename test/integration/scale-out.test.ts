import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

const postgres = testEngines.find((e) => e.name === 'postgres');

/** Polls until the predicate holds; cross-instance notices arrive within milliseconds. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe.skipIf(!postgres)('two instances sharing PostgreSQL', () => {
  let a: RunningGateway;
  let b: RunningGateway;

  beforeAll(async () => {
    a = await startGateway(postgres!);
    b = await startGateway(postgres!, { databaseUrl: a.store.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('refuses on one instance a key disabled or deleted through the other', async () => {
    const { body } = await call(a, 'POST', '/keys', { key: a.managementKey, body: { name: 'Shared' } });
    expect((await call(b, 'GET', '/key', { key: body.key })).status).toBe(200); // now cached on b

    await call(a, 'PATCH', `/keys/${body.data.hash}`, { key: a.managementKey, body: { disabled: true } });
    expect(await eventually(async () => (await call(b, 'GET', '/key', { key: body.key })).status === 401)).toBe(true);

    await call(a, 'PATCH', `/keys/${body.data.hash}`, { key: a.managementKey, body: { disabled: false } });
    expect(await eventually(async () => (await call(b, 'GET', '/key', { key: body.key })).status === 200)).toBe(true);

    await call(a, 'DELETE', `/keys/${body.data.hash}`, { key: a.managementKey });
    expect(await eventually(async () => (await call(b, 'GET', '/key', { key: body.key })).status === 401)).toBe(true);
  });

  it('runs bootstrap once however many instances start', async () => {
    const orgs = await a.store.db.selectFrom('organizations').select('id').execute();
    expect(orgs).toHaveLength(1);
  });
});

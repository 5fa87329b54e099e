import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internSecretReader } from '../../src/api/vault/routes.js';
import { INTERN_PROGRAMME_TOPIC } from '../../src/interns/flag-cache.js';
import { enroll } from '../../src/store/repositories/interns.js';
import { secretBox } from '../../src/util/secret-box.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

const VALUE = 'tok-very-secret-123';

describe.each(testEngines)('secret vault on $name', (engine) => {
  let gateway: RunningGateway;
  const key = () => gateway.managementKey;

  beforeAll(async () => {
    gateway = await startGateway(engine, { internRuntime: false });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers every vault path, workspace secrets included, with 404 outside the programme', async () => {
    for (const [method, path] of [
      ['GET', '/vault/secrets'],
      ['PUT', '/vault/secrets/a'],
      ['DELETE', '/vault/secrets/a'],
      ['GET', '/vault/interns/intern_x/secrets'],
    ] as const) {
      const outside = await call(gateway, method, path, {
        key: key(),
        ...(method === 'PUT' ? { body: { value: 'v', hosts: ['a.com'] } } : {}),
      });
      expect([outside.status, outside.body.error.metadata], `${method} ${path}`).toEqual([404, { reason: 'not_found', retryable: false }]);
    }
    await enroll(gateway.store.db, gateway.organizationId, new Date().toISOString());
    await gateway.changes.publish(INTERN_PROGRAMME_TOPIC, gateway.organizationId);
  });

  it('stores workspace secrets write-only, lists and deletes them', async () => {
    const put = await call(gateway, 'PUT', '/vault/secrets/github_token', {
      key: key(),
      body: { value: VALUE, hosts: ['API.GitHub.com.', 'api.github.com'] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'github_token', hosts: ['api.github.com'] });
    expect(put.body.data.fingerprint).toMatch(/^hmac-sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(put.body)).not.toContain(VALUE);
    const list = await call(gateway, 'GET', '/vault/secrets', { key: key() });
    expect(list.body).toEqual({ data: [put.body.data], has_more: false });
    const stored = await gateway.store.db.selectFrom('vault_secrets').select('ciphertext').executeTakeFirstOrThrow();
    expect(stored.ciphertext).not.toContain(VALUE);

    for (const [name, body] of [
      ['Bad-Name', { value: 'v', hosts: ['a.com'] }],
      ['ok', { value: '', hosts: ['a.com'] }],
      ['ok', { value: 'v', hosts: ['https://a.com'] }],
      ['ok', { value: 'v', hosts: [] }],
    ] as const) {
      const res = await call(gateway, 'PUT', `/vault/secrets/${name}`, { key: key(), body });
      expect([res.status, res.body.error.metadata], `${name} ${JSON.stringify(body)}`).toEqual([
        400,
        { reason: 'bad_request', retryable: false },
      ]);
    }
    expect((await call(gateway, 'DELETE', '/vault/secrets/github_token', { key: key() })).status).toBe(204);
    expect((await call(gateway, 'DELETE', '/vault/secrets/github_token', { key: key() })).status).toBe(404);
  });

  it("keeps an intern's own secrets, copies workspace secrets in, and hands values only to the runtime", async () => {
    const intern = (await call(gateway, 'POST', '/interns', { key: key(), body: { name: 'vaulted' } })).body;
    const unknown = await call(gateway, 'PUT', '/vault/interns/intern_nope/secrets/a', {
      key: key(),
      body: { value: 'v', hosts: ['a.com'] },
    });
    expect(unknown.status).toBe(404);

    const own = await call(gateway, 'PUT', `/vault/interns/${intern.id}/secrets/own_key`, {
      key: key(),
      body: { value: VALUE, hosts: ['hooks.example.com'] },
    });
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain(VALUE);
    const bad = await call(gateway, 'PUT', `/vault/interns/${intern.id}/secrets/own_key`, {
      key: key(),
      body: { value: 'v', hosts: ['*.example.com'] },
    });
    expect([bad.status, bad.body.error.metadata]).toEqual([400, { reason: 'bad_request', retryable: false }]);

    await call(gateway, 'PUT', '/vault/secrets/shared_one', { key: key(), body: { value: 'shared-value', hosts: ['x.example.com'] } });
    const missing = await call(gateway, 'POST', `/vault/interns/${intern.id}/secrets/copy`, {
      key: key(),
      body: { names: ['shared_one', 'absent'] },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/absent/);
    const copied = await call(gateway, 'POST', `/vault/interns/${intern.id}/secrets/copy`, { key: key(), body: { names: ['shared_one'] } });
    expect(copied.status).toBe(200);
    expect(copied.body.data.map((s: { name: string }) => s.name)).toEqual(['shared_one']);

    const listed = await call(gateway, 'GET', `/vault/interns/${intern.id}/secrets?limit=1`, { key: key() });
    expect(listed.body.has_more).toBe(true);
    expect(listed.body.data.map((s: { name: string }) => s.name)).toEqual(['own_key']);

    const vaultKey = await gateway.store.db
      .selectFrom('gateway_settings')
      .select('value')
      .where('name', '=', 'vault_key')
      .executeTakeFirstOrThrow();
    const reader = internSecretReader({ db: gateway.store.db, box: secretBox(vaultKey.value) });
    const values = async (internId: string, names: string[]) =>
      Object.fromEntries(Object.entries(await reader.withHosts(internId, names)).map(([name, secret]) => [name, secret.value]));
    expect(await values(intern.id, ['own_key', 'shared_one', 'nope'])).toEqual({ own_key: VALUE, shared_one: 'shared-value' });
    expect(await reader.withHosts(intern.id, ['own_key'])).toEqual({ own_key: { value: VALUE, hosts: ['hooks.example.com'] } });

    expect((await call(gateway, 'DELETE', `/vault/interns/${intern.id}/secrets/own_key`, { key: key() })).status).toBe(204);
    expect(Object.keys(await values(intern.id, ['own_key']))).toEqual([]);
  });
});

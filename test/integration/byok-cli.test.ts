import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, masterKeyId } from '../../src/byok/envelope.js';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

// Each command is a process of its own (about a second on a busy machine).
const MANY_COMMANDS = { timeout: 120_000 };
const config = join(mkdtempSync(join(tmpdir(), 'mg-byok-cli-')), 'gateway.yaml');
writeFileSync(
  config,
  'providers:\n  - { id: alpha, kind: openai, base_url: "http://127.0.0.1:9/v1", api_key: own-key, timeout_ms: 1000 }\nmodels: []\n',
);
const MASTER_A = 'a1'.repeat(32);
const MASTER_B = 'b2'.repeat(32);
const KEY = 'sk-cli-byok-0123456789';

/** `model-gateway byok …` (from dist/: `npm run build` first) on the database of a running server. */
describe.each(testEngines)('model-gateway byok on $name', MANY_COMMANDS, (engine) => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  const cli = (env: Record<string, string>, ...args: string[]) =>
    runCli(args, { DATABASE_URL: database.url, GATEWAY_CONFIG: config, ...env });

  beforeAll(async () => {
    database = await engine.create();
    gateway = await startGateway(engine, { databaseUrl: database.url });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  it('adds, lists, disables and deletes a credential, never printing the key, and rewraps it under a new master key', async () => {
    const added = await cli({ BYOK_MASTER_KEY: MASTER_A }, 'byok', 'add', '--provider', 'alpha', '--key', KEY, '--name', 'ops', '--json');
    expect(added.stderr).toBe('');
    expect(added.stdout).not.toContain(KEY);
    const { data } = JSON.parse(added.stdout);
    expect(data).toMatchObject({ provider: 'alpha', label: 'sk-...6789', name: 'ops', disabled: false });
    const read = await call(gateway, 'GET', `/byok/${data.id}`, { key: gateway.managementKey });
    expect(read.body.data).toEqual(data);

    const listed = await cli({}, 'byok', 'list');
    expect(listed.stdout).toMatch(new RegExp(`^${data.id} +alpha +sk-\\.\\.\\.6789 `, 'm'));
    expect(listed.stdout).not.toContain(KEY);

    const unknown = await cli({}, 'byok', 'add', '--provider', 'nowhere', '--key', 'sk-x');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('provider nowhere is not a provider this gateway knows: one of alpha');

    // Rotating the master key: the row opens under the new one once rewrapped, and the sealed key itself is unchanged.
    const before = await gateway.store.db.selectFrom('byok_credentials').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(before.master_key_id).toBe(masterKeyId(MASTER_A));
    const rewrapped = await cli({ BYOK_MASTER_KEY: MASTER_B, BYOK_MASTER_KEYS_PREVIOUS: MASTER_A }, 'byok', 'rewrap');
    expect(rewrapped.stdout).toBe(`rewrapped 1 credential under master key ${masterKeyId(MASTER_B)}\n`);
    const after = await gateway.store.db.selectFrom('byok_credentials').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(after.sealed_key).toBe(before.sealed_key);
    expect(after.master_key_id).toBe(masterKeyId(MASTER_B));
    expect(
      envelope([MASTER_B]).open({
        sealedKey: after.sealed_key!,
        wrappedDataKey: after.wrapped_data_key!,
        masterKeyId: after.master_key_id!,
      }),
    ).toBe(KEY);
    expect(() =>
      envelope([MASTER_A]).open({
        sealedKey: after.sealed_key!,
        wrappedDataKey: after.wrapped_data_key!,
        masterKeyId: after.master_key_id!,
      }),
    ).toThrow(/not configured/);

    expect((await cli({}, 'byok', 'disable', data.id)).stdout).toBe(`disabled ${data.id}\n`);
    expect((await call(gateway, 'GET', `/byok/${data.id}`, { key: gateway.managementKey })).body.data.disabled).toBe(true);
    expect((await cli({}, 'byok', 'delete', data.id)).stdout).toBe(`deleted ${data.id} (its key material is wiped)\n`);
    const wiped = await gateway.store.db.selectFrom('byok_credentials').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(wiped).toMatchObject({ sealed_key: null, wrapped_data_key: null });
  });
});

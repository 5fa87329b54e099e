import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { addMember } from '../../src/store/repositories/members.js';
import { newUserId } from '../../src/util/ids.js';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

// Each command is a process of its own (about a second on a busy machine).
const MANY_COMMANDS = { timeout: 120_000 };
const config = join(mkdtempSync(join(tmpdir(), 'mg-workspaces-')), 'gateway.yaml');
writeFileSync(
  config,
  [
    'providers:',
    '  - { id: alpha, kind: openai, base_url: "http://127.0.0.1:9/v1", api_key: sim-key }',
    'models:',
    '  - id: sim/chat',
    '    endpoints: [{ provider: alpha, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]',
  ].join('\n'),
);

/** `model-gateway workspaces list|create|members add|remove|list` (from dist/: `npm run build` first) beside a running server of the same deployment. */
describe.each(testEngines)('model-gateway workspaces on $name', MANY_COMMANDS, (engine) => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url, GATEWAY_CONFIG: config });
  const api = (method: string, path: string, body?: unknown) =>
    call(gateway, method, path, { key: gateway.managementKey, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    database = await engine.create();
    const catalog = buildCatalog({
      config: loadGatewayConfig(config, { knownKinds: PROVIDER_KINDS }),
      env: {},
      knownKinds: PROVIDER_KINDS,
    });
    gateway = await startGateway(engine, { databaseUrl: database.url, catalog });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  it('creates a workspace the API then serves, and lists what the API lists', async () => {
    const created = await cli(
      'workspaces',
      'create',
      '--name',
      'Research',
      '--slug',
      'research',
      '--default-text-model',
      'sim/chat',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const shown = (await api('GET', '/workspaces/research')).body;
    expect(JSON.parse(created.stdout)).toEqual(shown);
    expect(shown.data.default_text_model).toBe('sim/chat');
    expect(JSON.parse((await cli('workspaces', 'list', '--json')).stdout)).toEqual((await api('GET', '/workspaces')).body);
    const table = (await cli('workspaces', 'list')).stdout;
    expect(table).toMatch(/^ID +SLUG +NAME/);
    expect(table).toMatch(/research +Research +sim\/chat/);
  });

  it('adds and removes members as the API does', async () => {
    await cli('workspaces', 'create', '--name', 'Ops', '--slug', 'ops');
    const dana = (
      await addMember(
        gateway.store.db,
        gateway.organizationId,
        { email: 'dana@example.com', role: 'member' },
        newUserId,
        new Date().toISOString(),
      )
    ).id;
    const added = await cli('workspaces', 'members', 'add', 'ops', dana, '--role', 'admin', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ added_count: 1, data: [{ user_id: dana, role: 'admin' }] });
    expect(JSON.parse((await cli('workspaces', 'members', 'list', 'ops', '--json')).stdout)).toEqual(
      (await api('GET', '/workspaces/ops/members')).body,
    );
    const removed = await cli('workspaces', 'members', 'remove', 'ops', dana);
    expect(removed).toMatchObject({ code: 0, stdout: 'removed 1 member from ops\n' });
    expect((await api('GET', '/workspaces/ops/members')).body.total_count).toBe(0);
  });

  it('refuses with the API’s rules and messages, and changes nothing then', async () => {
    const before = (await api('GET', '/workspaces')).body.total_count;
    for (const [args, method, path, body] of [
      [['create', '--name', 'x', '--slug', 'has spaces'], 'POST', '/workspaces', { name: 'x', slug: 'has spaces' }],
      [
        ['create', '--name', 'x', '--slug', 'x', '--default-text-model', 'sim/nothing'],
        'POST',
        '/workspaces',
        { name: 'x', slug: 'x', default_text_model: 'sim/nothing' },
      ],
      [['create', '--name', 'Again', '--slug', 'research'], 'POST', '/workspaces', { name: 'Again', slug: 'research' }],
      [['members', 'add', 'research', 'user_stranger'], 'POST', '/workspaces/research/members/add', { user_ids: ['user_stranger'] }],
      [['members', 'add', 'nowhere', 'user_stranger'], 'POST', '/workspaces/nowhere/members/add', { user_ids: ['user_stranger'] }],
    ] as const) {
      const refused = await api(method, path, body);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await cli('workspaces', ...args), args.join(' ')).toMatchObject({
        code: 1,
        stderr: `model-gateway: ${refused.body.error.message}\n`,
      });
    }
    expect((await api('GET', '/workspaces')).body.total_count).toBe(before);
  });
});

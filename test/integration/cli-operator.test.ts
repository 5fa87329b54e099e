import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const tempFile = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'mg-op-')), name);
  writeFileSync(path, text);
  return path;
};
// Each command is a process of its own (about a second on a busy machine): these tests run many.
const MANY_COMMANDS = { timeout: 120_000 };
// An explicit empty config, so that no gateway.yaml of the working directory is picked up.
const emptyConfig = tempFile('gateway.yaml', '# nothing configured\n');

describe('model-gateway --version', MANY_COMMANDS, () => {
  it('prints the version of the package', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], {});
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${packageJson.version}\n`);
    }
  });
});

describe.each(testEngines)('operator commands on $name', MANY_COMMANDS, (engine) => {
  let database: TestDatabase;
  let sim: Simulator;
  let gateway: RunningGateway;
  const env = () => ({ DATABASE_URL: database.url, GATEWAY_CONFIG: emptyConfig });
  const cli = (...args: string[]) => runCli(args, env());
  const api = (method: string, path: string, body?: unknown) =>
    call(gateway, method, path, { key: gateway.managementKey, ...(body !== undefined ? { body } : {}) });
  const newKey = async (body: Record<string, unknown>) =>
    (await api('POST', '/keys', body)).body as { key: string; data: { hash: string } };

  beforeAll(async () => {
    database = await engine.create();
    sim = await startSimulator();
    // A server of the same deployment, running while the commands change its database.
    gateway = await startGateway(engine, {
      databaseUrl: database.url,
      catalog: simCatalog(sim.url, ['alpha'], [{ id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await sim?.close();
    await database?.drop();
  });

  it('lists, shows, updates, disables, enables and deletes keys by hash, printing what the API answers', async () => {
    const { key, data } = await newKey({ name: 'ops', limit: 4, limit_reset: 'weekly' });
    const hash = data.hash;

    const table = await cli('keys', 'list');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^HASH +NAME +LABEL +STATE +LIMIT +RESET +REMAINING +USAGE +EXPIRES$/);
    expect(table.stdout).toMatch(new RegExp(`^${hash} +ops +sk-mg-v1-\\S+ +active +4 +weekly +4 +0 +-$`, 'm'));
    expect(JSON.parse((await cli('keys', 'list', '--json')).stdout)).toEqual((await api('GET', '/keys')).body);

    expect(JSON.parse((await cli('keys', 'show', hash, '--json')).stdout)).toEqual((await api('GET', `/keys/${hash}`)).body);
    expect((await cli('keys', 'show', hash)).stdout).toMatch(/^name +ops$/m);

    const updated = await cli(
      'keys',
      'update',
      hash,
      '--name',
      'renamed',
      '--limit',
      '2.5',
      '--limit-reset',
      'daily',
      '--include-byok-in-limit',
      '--json',
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).data).toMatchObject({
      name: 'renamed',
      limit: 2.5,
      limit_reset: 'daily',
      include_byok_in_limit: true,
    });
    expect((await api('GET', `/keys/${hash}`)).body.data).toEqual(JSON.parse(updated.stdout).data);
    expect((await cli('keys', 'update', hash, '--limit', 'none', '--limit-reset', 'none', '--no-include-byok-in-limit')).code).toBe(0);
    expect((await api('GET', `/keys/${hash}`)).body.data).toMatchObject({ limit: null, limit_reset: null, include_byok_in_limit: false });

    const disabled = await cli('keys', 'disable', hash);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toMatch(/^disabled +true$/m);
    expect(await call(gateway, 'GET', '/key', { key })).toMatchObject({ status: 401, body: { error: { message: 'API key is disabled' } } });
    expect((await cli('keys', 'list')).stdout).not.toContain(hash);
    expect((await cli('keys', 'list', '--include-disabled')).stdout).toMatch(new RegExp(`^${hash} +renamed +\\S+ +disabled `, 'm'));
    expect((await cli('keys', 'enable', hash)).code).toBe(0);
    expect((await api('GET', `/keys/${hash}`)).body.data.disabled).toBe(false);

    const deleted = await cli('keys', 'delete', hash);
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted API key ${hash}\n` });
    expect((await api('GET', `/keys/${hash}`)).status).toBe(404);
    for (const args of [
      ['delete', hash],
      ['show', hash],
      ['disable', hash],
    ]) {
      expect(await cli('keys', ...args)).toMatchObject({ code: 1, stderr: `model-gateway: API key ${hash} not found\n` });
    }
    expect(JSON.parse((await cli('keys', 'delete', (await newKey({ name: 'gone' })).data.hash, '--json')).stdout)).toEqual({
      deleted: true,
    });
  });

  it('refuses limits, resets, names and expiries with the rules and messages of the API, and changes nothing then', async () => {
    const { data } = await newKey({ name: 'kept', limit: 1 });
    const hash = data.hash;
    const cases: [string[], string, string, Record<string, unknown>][] = [
      [['keys', 'update', hash, '--limit', '-3'], 'PATCH', `/keys/${hash}`, { limit: -3 }],
      [['keys', 'update', hash, '--limit', 'abc'], 'PATCH', `/keys/${hash}`, { limit: 'abc' }],
      [['keys', 'update', hash, '--limit', '1e400'], 'PATCH', `/keys/${hash}`, { limit: '1e400' }],
      [['keys', 'update', hash, '--limit-reset', 'yearly'], 'PATCH', `/keys/${hash}`, { limit_reset: 'yearly' }],
      [['keys', 'update', hash, '--name', ''], 'PATCH', `/keys/${hash}`, { name: '' }],
      [['keys', 'update', hash, '--creator-user-id', 'user_nobody'], 'PATCH', `/keys/${hash}`, { creator_user_id: 'user_nobody' }],
      [['keys', 'create', '--name', 'x', '--limit', '-1'], 'POST', '/keys', { name: 'x', limit: -1 }],
      [
        ['keys', 'create', '--name', 'x', '--expires-at', '2020-01-01T00:00:00Z'],
        'POST',
        '/keys',
        { name: 'x', expires_at: '2020-01-01T00:00:00Z' },
      ],
      [
        ['keys', 'create', '--name', 'x', '--expires-at', '2099-01-01T00:00:00+02:00'],
        'POST',
        '/keys',
        { name: 'x', expires_at: '2099-01-01T00:00:00+02:00' },
      ],
      [['keys', 'create', '--name', 'x', '--expires-at', 'tomorrow'], 'POST', '/keys', { name: 'x', expires_at: 'tomorrow' }],
    ];
    for (const [args, method, path, body] of cases) {
      const refused = await api(method, path, body);
      expect(refused.status, args.join(' ')).toBe(400);
      expect(await cli(...args), args.join(' ')).toMatchObject({ code: 1, stderr: `model-gateway: ${refused.body.error.message}\n` });
    }
    expect((await api('GET', `/keys/${hash}`)).body.data).toMatchObject({ name: 'kept', limit: 1, limit_reset: null });
    expect((await api('GET', '/keys')).body.data.filter((k: { name: string }) => k.name === 'x')).toEqual([]);
    expect(await cli('keys', 'update', hash)).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to change') });

    const created = await cli(
      'keys',
      'create',
      '--name',
      'expiring',
      '--limit',
      '3',
      '--limit-reset',
      'monthly',
      '--expires-at',
      '2099-01-01T00:00:00+00:00',
    );
    expect(created.code, created.stderr).toBe(0);
    const createdHash = /\(hash ([0-9a-f]{64})\)/.exec(created.stderr)?.[1];
    expect((await api('GET', `/keys/${createdHash}`)).body.data).toMatchObject({
      name: 'expiring',
      limit: 3,
      limit_reset: 'monthly',
      expires_at: '2099-01-01T00:00:00.000Z',
    });
  });

  it('lists members as GET /organization/members does, a page at a time', async () => {
    for (const email of ['ada@example.com', 'grace@example.com'])
      expect((await cli('members', 'add', '--email', email, '--first-name', 'First')).code).toBe(0);
    const table = await cli('members', 'list');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +EMAIL +FIRST NAME +LAST NAME +ROLE$/);
    expect(table.stdout).toMatch(/^user_\S+ +ada@example\.com +First +- +org:member$/m);
    expect(JSON.parse((await cli('members', 'list', '--json')).stdout)).toEqual((await api('GET', '/organization/members')).body);
    const total = (await api('GET', '/organization/members')).body.total_count as number;
    expect((await cli('members', 'list', '--limit', '1')).stdout).toContain(`(1 of ${total} shown; --offset 1 for more)`);
    expect(JSON.parse((await cli('members', 'list', '--offset', '1', '--limit', '1', '--json')).stdout)).toEqual(
      (await api('GET', '/organization/members?offset=1&limit=1')).body,
    );
    for (const [option, value] of [
      ['limit', '101'],
      ['limit', '0'],
      ['offset', '-1'],
      ['limit', 'many'],
    ] as const) {
      const refused = await api('GET', `/organization/members?${option}=${value}`);
      expect(refused.status).toBe(400);
      // The API names the part of the request (a query parameter); the rule and its words are the same.
      expect(refused.body.error.message).toMatch(/^query parameter /);
      expect(await cli('members', 'list', `--${option}`, value)).toMatchObject({
        code: 1,
        stderr: `model-gateway: ${refused.body.error.message.slice('query parameter '.length)}\n`,
      });
    }
  });

  it('shows a generation as GET /generation?id= does', async () => {
    const { key } = await newKey({ name: 'chatter' });
    const chat = await call(gateway, 'POST', '/chat/completions', {
      key,
      body: { model: 'sim/fast', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(200);
    const id = chat.body.id as string;
    const shown = await cli('generations', 'show', id, '--json');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual((await api('GET', `/generation?id=${id}`)).body);
    const people = (await cli('generations', 'show', id)).stdout;
    expect(people).toMatch(new RegExp(`^id +${id}$`, 'm'));
    expect(people).toMatch(/^model +sim\/fast$/m);
    expect(await cli('generations', 'show', 'gen-nope')).toMatchObject({
      code: 1,
      stderr: 'model-gateway: generation gen-nope not found\n',
    });
  });

  it.runIf(engine.name === 'postgres')(
    'reaches running servers at once through PostgreSQL NOTIFY: a disabled or deleted key is refused on its next request',
    async () => {
      await expectChangesReachServer(gateway, cli, newKey);
    },
  );
});

describe.runIf(process.env.TEST_REDIS_URL)('operator commands with Redis', MANY_COMMANDS, () => {
  const engine = testEngines[0]!;
  let database: TestDatabase;
  let gateway: RunningGateway;
  const redisUrl = process.env.TEST_REDIS_URL!;

  beforeAll(async () => {
    database = await engine.create();
    gateway = await startGateway(engine, { databaseUrl: database.url, redisUrl });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  it('reach running servers at once through Redis, on SQLite too', async () => {
    const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url, GATEWAY_CONFIG: emptyConfig, REDIS_URL: redisUrl });
    const newKey = async (body: Record<string, unknown>) =>
      (await call(gateway, 'POST', '/keys', { key: gateway.managementKey, body })).body;
    await expectChangesReachServer(gateway, cli, newKey);
  });
});

/**
 * A key the server has just accepted (so it is in its cache, where it would
 * stay for a minute) is refused soon after `keys disable`, accepted after
 * `keys enable`, and refused after `keys delete`.
 */
async function expectChangesReachServer(
  gateway: RunningGateway,
  cli: (...args: string[]) => ReturnType<typeof runCli>,
  newKey: (body: Record<string, unknown>) => Promise<{ key: string; data: { hash: string } }>,
) {
  const { key, data } = await newKey({ name: 'watched' });
  const self = async () => {
    const response = await call(gateway, 'GET', '/key', { key });
    return { status: response.status, message: response.body?.error?.message };
  };
  const soon = { timeout: 3_000, interval: 50 };
  expect(await self()).toEqual({ status: 200, message: undefined });
  expect((await cli('keys', 'disable', data.hash)).code).toBe(0);
  await vi.waitFor(async () => expect(await self()).toEqual({ status: 401, message: 'API key is disabled' }), soon);
  expect((await cli('keys', 'enable', data.hash)).code).toBe(0);
  await vi.waitFor(async () => expect((await self()).status).toBe(200), soon);
  expect((await cli('keys', 'delete', data.hash)).code).toBe(0);
  await vi.waitFor(async () => expect(await self()).toEqual({ status: 401, message: 'Invalid API key' }), soon);
}

describe('model-gateway config check', MANY_COMMANDS, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-check-'));
  const write = (name: string, lines: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  const good = write('good.yaml', [
    'providers:',
    '  - { id: sim, kind: openai, base_url: "http://127.0.0.1:9/v1", api_key: k }',
    'models:',
    '  - id: sim/a',
    '    endpoints: [{ provider: sim, upstream_model: a, pricing: { prompt: 0, completion: 0 } }]',
    '  - id: sim/b',
    '    endpoints: [{ provider: sim, upstream_model: b, pricing: { prompt: 0, completion: 0 } }]',
  ]);
  const database = () => ({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: '0' });

  it('says a good file is valid in one line and exits 0; the file is GATEWAY_CONFIG unless named', async () => {
    const named = await runCli(['config', 'check', good], {});
    expect(named).toMatchObject({ code: 0, stdout: `${good}: valid; 1 providers; models: 2 chat\n` });
    expect(await runCli(['config', 'check'], { GATEWAY_CONFIG: good })).toMatchObject({ code: 0, stdout: named.stdout });
  });

  it.each([
    ['an unknown provider kind', ['providers:', '  - id: acme', '    kind: telepathy', '    base_url: http://127.0.0.1:9/v1']],
    [
      'a model of an undeclared provider',
      [
        'providers: []',
        'models:',
        '  - id: x/y',
        '    endpoints:',
        '      - { provider: nowhere, upstream_model: y, pricing: { prompt: 0, completion: 0 } }',
      ],
    ],
    ['broken YAML', ['providers:', '  - id: acme', '   kind: [openai']],
    ['an unknown key', ['providers: []', 'telemetry: on']],
    [
      'a moderation provider the catalog lacks',
      ['providers:', '  - { id: sim, kind: openai, base_url: "http://127.0.0.1:9/v1", api_key: k }', 'moderation: { provider: elsewhere }'],
    ],
  ])('refuses %s with the error serve stops at, and exits 1', async (_, lines) => {
    const bad = write(`bad-${lines.length}-${lines[0]!.length}.yaml`, lines);
    const checked = await runCli(['config', 'check', bad], {});
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe('');
    expect(checked.stderr).toMatch(/^model-gateway: \S/);
    const served = await runCli(['serve'], { ...database(), GATEWAY_CONFIG: bad });
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(checked.stderr);
  });

  it('names the position in the file where serve does', async () => {
    const bad = write('kind.yaml', ['providers:', '  - id: acme', '    kind: telepathy', '    base_url: http://127.0.0.1:9/v1']);
    expect((await runCli(['config', 'check', bad], {})).stderr).toContain(
      `${bad}:3:11: providers[0].kind "telepathy" is not a provider kind this gateway speaks`,
    );
    const missing = join(dir, 'missing.yaml');
    expect(await runCli(['config', 'check'], { GATEWAY_CONFIG: missing })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${missing}: cannot read the config file`),
    });
  });
});

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/server.js';
import { openStore } from '../../src/store/database.js';
import { hasSchema } from '../../src/store/migrate.js';
import { runCli, startServe } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';

const getKey = (baseUrl: string, key: string) => fetch(`${baseUrl}/key`, { headers: { authorization: `Bearer ${key}` } });

describe.each(testEngines)('model-gateway command line on $name', (engine) => {
  let database: TestDatabase;
  // An explicit empty config, so that no gateway.yaml of the working directory is picked up.
  const emptyConfig = join(mkdtempSync(join(tmpdir(), 'mg-cfg-')), 'gateway.yaml');
  const env = () => ({ DATABASE_URL: database.url, GATEWAY_CONFIG: emptyConfig });

  beforeAll(async () => {
    database = await engine.create();
    writeFileSync(emptyConfig, '# nothing configured yet\n');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('creates the default organization on first start, prints a working management key once, and exits 0 on SIGTERM', async () => {
    const first = await startServe(env());
    const key = /(sk-mg-v1-[0-9a-f]{64})/.exec(first.stderr())?.[1];
    expect(key).toBeDefined();
    const self = (await (await getKey(first.baseUrl, key!)).json()) as any;
    expect(self.data.is_management_key).toBe(true);
    expect(await first.stop()).toBe(0);

    const second = await startServe(env());
    expect(second.stderr()).not.toMatch(/sk-mg-v1-/);
    expect((await getKey(second.baseUrl, key!)).status).toBe(200);
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('uses GATEWAY_BOOTSTRAP_MANAGEMENT_KEY as given, idempotently across restarts', async () => {
    const bootstrapKey = 'my-own-management-key-for-automation-0123456789';
    for (let i = 0; i < 2; i++) {
      const serving = await startServe({ ...env(), GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: bootstrapKey });
      expect(serving.stderr()).not.toContain(bootstrapKey);
      const res = await getKey(serving.baseUrl, bootstrapKey);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.is_management_key).toBe(true);
      const keys = (await (await fetch(`${serving.baseUrl}/keys`, { headers: { authorization: `Bearer ${bootstrapKey}` } })).json()) as any;
      expect(keys.data.filter((k: { label: string }) => k.label === 'my-...6789')).toHaveLength(1);
      expect(await serving.stop()).toBe(0);
    }
  });

  it('creates keys and adds members from the command line', async () => {
    const created = await runCli(['keys', 'create', '--name', 'ci', '--management', '--limit', '7.5'], env());
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sk-mg-v1-[0-9a-f]{64}$/);

    const added = await runCli(
      ['members', 'add', '--email', 'Ada@Example.com', '--role', 'admin', '--first-name', 'Ada', '--last-name', 'Lovelace'],
      env(),
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email: 'ada@example.com', role: 'admin', first_name: 'Ada' });

    const serving = await startServe(env());
    const self = (await (await getKey(serving.baseUrl, key)).json()) as any;
    expect(self.data).toMatchObject({ is_management_key: true, limit: 7.5 });
    const members = (await (
      await fetch(`${serving.baseUrl}/organization/members`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as any;
    expect(members.data).toContainEqual(
      expect.objectContaining({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', role: 'org:admin' }),
    );
    await serving.stop();
  });

  it('refuses bad arguments with a clear message', async () => {
    const badRole = await runCli(['members', 'add', '--email', 'x@example.com', '--role', 'owner'], env());
    expect(badRole.code).not.toBe(0);
    expect(badRole.stderr).toContain('Allowed choices are admin, member');
    const badLimit = await runCli(['keys', 'create', '--name', 'x', '--limit', '-3'], env());
    expect(badLimit.code).not.toBe(0);
    expect(badLimit.stderr).toContain('limit must be >= 0');
  });
});

describe('management commands where no database exists', () => {
  const COMMANDS = [
    ['keys', 'list'],
    ['keys', 'create', '--name', 'ci', '--management'],
    ['keys', 'disable', 'f'.repeat(64)],
    ['members', 'add', '--email', 'ada@example.com'],
    ['members', 'list'],
    ['workspaces', 'list'],
    ['interns', 'enroll'],
    ['credits', 'show'],
    ['generations', 'show', 'gen-1'],
  ];

  it('exit non-zero naming the SQLite file they looked for, and create neither it nor its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-missing-'));
    const file = join(dir, 'data', 'gateway.sqlite');
    for (const command of COMMANDS) {
      const result = await runCli(command, { DATABASE_URL: `sqlite:${file}`, GATEWAY_CONFIG: join(dir, 'none.yaml') });
      expect(result.code, command.join(' ')).toBe(1);
      expect(result.stderr, command.join(' ')).toContain(
        `the SQLite file ${file} does not exist: start the gateway on it once (model-gateway serve)`,
      );
      expect(result.stdout).toBe('');
      expect(existsSync(join(dir, 'data')), command.join(' ')).toBe(false);
    }
  });

  it.each(testEngines)(
    'exit non-zero on a $name database without the schema, or migrated but never started, and create no key',
    async (engine) => {
      const database = await engine.create();
      try {
        const env = { DATABASE_URL: database.url, GATEWAY_CONFIG: join(mkdtempSync(join(tmpdir(), 'mg-cfg-')), 'none.yaml') };
        if (engine.name === 'postgres') {
          const empty = await runCli(['keys', 'list'], env);
          expect(empty.code).toBe(1);
          expect(empty.stderr).toContain('the PostgreSQL database postgres://');
          expect(empty.stderr).toContain('has no gateway schema');
          const store = openStore(database.url);
          expect(await hasSchema(store)).toBe(false);
          await store.close();
        }
        expect((await runCli(['migrate'], env)).code).toBe(0);
        const created = await runCli(['keys', 'create', '--name', 'ci', '--management'], env);
        expect(created.code).toBe(1);
        expect(created.stderr).toContain('has no default organization yet');
        expect(created.stderr).not.toMatch(/sk-mg-v1-/);
        const store = openStore(database.url);
        expect(await store.db.selectFrom('api_keys').select('hash').execute()).toEqual([]);
        expect(await store.db.selectFrom('organizations').select('id').execute()).toEqual([]);
        await store.close();
      } finally {
        await database.drop();
      }
    },
  );
});

describe('model-gateway serve draining on SIGTERM', () => {
  it('finishes the requests in flight, then exits 0', async () => {
    const sim = await startSimulator();
    const dir = mkdtempSync(join(tmpdir(), 'mg-drain-'));
    const config = join(dir, 'gateway.yaml');
    writeFileSync(
      config,
      [
        'providers:',
        `  - { id: sim, kind: openai, base_url: "${sim.url}/v1", api_key: k }`,
        'models:',
        '  - id: sim/slow',
        '    endpoints:',
        '      - { provider: sim, upstream_model: "sim-model@latency=800", pricing: { prompt: 0, completion: 0 } }',
        '  - id: sim/slow-stream',
        '    endpoints:',
        '      - { provider: sim, upstream_model: "sim-model@chunks=8,chunk_delay=100", pricing: { prompt: 0, completion: 0 } }',
      ].join('\n'),
    );
    const key = 'drain-test-management-key-000000';
    const serving = await startServe({
      GATEWAY_CONFIG: config,
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: key,
    });
    const post = (model: string, stream: boolean) =>
      fetch(`${serving.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
      });
    const json = post('sim/slow', false);
    const stream = post('sim/slow-stream', true);
    await new Promise((r) => setTimeout(r, 200));
    const exited = serving.stop('SIGTERM');
    const [jsonResponse, streamResponse] = await Promise.all([json, stream]);
    expect(jsonResponse.status).toBe(200);
    expect(((await jsonResponse.json()) as any).choices[0].message.content).toContain('hi');
    const text = await streamResponse.text();
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(await exited).toBe(0);
    await sim.close();
  });
});

describe('model-gateway serve with an invalid config', () => {
  it('stops at start naming the file, line and key, and never listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-cfg-'));
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, 'providers:\n  - id: acme\n    kind: telepathy\n    base_url: http://127.0.0.1:9/v1\n');
    const result = await runCli(['serve'], { GATEWAY_CONFIG: config, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${config}:3:11: providers[0].kind "telepathy" is not a provider kind this gateway speaks`);
    expect(result.stdout).not.toContain('listening');
  });

  it('stops at start on a DATABASE_URL it cannot use', async () => {
    const result = await runCli(['serve'], { DATABASE_URL: 'mysql://nope', PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL must start with sqlite: or postgres://');
  });
});

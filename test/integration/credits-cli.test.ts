import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';
import { until } from '../support/until.js';

// Each command is a process of its own (about a second on a busy machine).
const MANY_COMMANDS = { timeout: 120_000 };
const emptyConfig = join(mkdtempSync(join(tmpdir(), 'mg-credits-')), 'gateway.yaml');
writeFileSync(emptyConfig, '# nothing configured\n');

/** `model-gateway credits grant|show` (from dist/: `npm run build` first) against a running server of the same deployment. */
describe.each(testEngines)('model-gateway credits on $name', MANY_COMMANDS, (engine) => {
  let database: TestDatabase;
  let sim: Simulator;
  let gateway: RunningGateway;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url, GATEWAY_CONFIG: emptyConfig });
  const api = (method: string, path: string, body?: unknown) =>
    call(gateway, method, path, { key: gateway.managementKey, ...(body !== undefined ? { body } : {}) });
  const chat = () =>
    call(gateway, 'POST', '/chat/completions', {
      key: gateway.managementKey,
      body: { model: 'sim/fast', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
    });

  beforeAll(async () => {
    database = await engine.create();
    sim = await startSimulator();
    gateway = await startGateway(engine, {
      databaseUrl: database.url,
      catalog: simCatalog(
        sim.url,
        ['alpha'],
        [{ id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.0001, completion: 0.0001 }] }],
      ),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await sim?.close();
    await database?.drop();
  });

  it('grants credits to the default organization as a ledger entry, and shows what the API shows', async () => {
    expect((await chat()).status).toBe(200);
    const granted = await cli('credits', 'grant', '--amount', '12.5', '--note', 'first top-up');
    expect(granted.code, granted.stderr).toBe(0);
    const { total_usage } = (await api('GET', '/credits')).body.data;
    expect(granted.stdout).toMatch(/^amount +12\.5$/m);
    expect(granted.stdout).toMatch(/^note +first top-up$/m);
    expect(granted.stdout).toMatch(/^granted_by +cli$/m);
    expect(granted.stdout).toMatch(new RegExp(`^balance +${String(Number((12.5 - total_usage).toFixed(9))).replace('.', '\\.')}$`, 'm'));
    const json = await cli('credits', 'grant', '--amount', '2', '--json');
    const listed = (await api('GET', '/credits/grants')).body;
    expect(JSON.parse(json.stdout)).toEqual({ data: listed.data[0] });
    expect(listed.data.map((g: { amount: number; granted_by: string }) => [g.amount, g.granted_by])).toEqual([
      [2, 'cli'],
      [12.5, 'cli'],
    ]);
    expect(JSON.parse((await cli('credits', 'show', '--json')).stdout)).toEqual((await api('GET', '/credits')).body);
    expect((await cli('credits', 'show')).stdout).toMatch(/^total_credits +14\.5$/m);
  });

  it('refuses with the API’s rules and messages, and grants nothing then', async () => {
    const before = (await api('GET', '/credits/grants')).body.total_count;
    for (const [args, body] of [
      [['--amount', '0'], { amount: 0 }],
      [['--amount', 'abc'], { amount: 'abc' }],
      [['--amount', '-1000'], { amount: -1000 }],
      [['--amount', '1', '--org', 'org_nowhere'], { amount: 1, organization_id: 'org_nowhere' }],
    ] as const) {
      const refused = await api('POST', '/credits/grants', body);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await cli('credits', 'grant', ...args), args.join(' ')).toMatchObject({
        code: 1,
        stderr: `model-gateway: ${refused.body.error.message}\n`,
      });
    }
    expect(await cli('credits', 'show', '--org', 'org_nowhere')).toMatchObject({
      code: 1,
      stderr: 'model-gateway: --org org_nowhere is not an organization\n',
    });
    expect((await api('GET', '/credits/grants')).body.total_count).toBe(before);
  });

  // On SQLite alone no channel reaches a running server: it sees a grant when its cache entry lapses (a minute).
  it.runIf(engine.name === 'postgres')(
    'reaches a running server at once: a correction that spends the balance refuses its next request',
    async () => {
      expect((await chat()).status).toBe(200);
      const { total_credits, total_usage } = (await api('GET', '/credits')).body.data;
      const taken = await cli('credits', 'grant', '--amount', String(-(total_credits - total_usage)), '--note', 'spent');
      expect(taken.code, taken.stderr).toBe(0);
      const refused = await until(chat, (res) => res.status === 402);
      expect(refused.body.error.metadata.limit).toBe('credits');
      expect((await cli('credits', 'grant', '--amount', '1')).code).toBe(0);
      expect((await until(chat, (res) => res.status === 200)).status).toBe(200);
    },
  );
});

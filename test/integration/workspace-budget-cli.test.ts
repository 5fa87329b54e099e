import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { budgetWorkspace } from '../support/budget-workspace.js';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

// Each command is a process of its own (about a second on a busy machine).
const MANY_COMMANDS = { timeout: 120_000 };
const emptyConfig = join(mkdtempSync(join(tmpdir(), 'mg-budget-cli-')), 'gateway.yaml');
writeFileSync(emptyConfig, '# nothing configured\n');

/** `model-gateway workspaces budget set` (from dist/: `npm run build` first) against a running server of the same deployment. */
describe.each(testEngines)('model-gateway workspaces budget set on $name', MANY_COMMANDS, (engine) => {
  let database: TestDatabase;
  let sim: Simulator;
  let gateway: RunningGateway;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url, GATEWAY_CONFIG: emptyConfig });

  beforeAll(async () => {
    database = await engine.create();
    sim = await startSimulator();
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

  it("sets a budget the running server holds the workspace's keys to, and prints what the API answers", async () => {
    const ws = await budgetWorkspace(gateway, 'cli-team');
    const key = await ws.newKey('member key');
    const set = await cli('workspaces', 'budget', 'set', 'cli-team', 'lifetime', '--limit', '0', '--include-byok');
    expect(set.stderr).toBe('');
    expect(set.stdout).toMatch(/^reset_interval +lifetime$/m);
    expect(set.stdout).toMatch(/^include_byok_in_budgets +true$/m);
    const chat = await call(gateway, 'POST', '/chat/completions', {
      key,
      body: { model: 'sim/fast', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(402);
    expect(chat.body.error.metadata).toMatchObject({ limit: 'workspace_budget', interval: 'lifetime', workspace_id: ws.id });

    const raised = await cli('workspaces', 'budget', 'set', ws.id, 'lifetime', '--limit', '10', '--no-include-byok', '--json');
    const read = await call(gateway, 'GET', `/workspaces/${ws.id}/budgets/lifetime`, { key: gateway.managementKey });
    expect(JSON.parse(raised.stdout)).toEqual(read.body);
    expect(read.body.include_byok_in_budgets).toBe(false);
  });

  it('refuses what the API refuses, with its message, and a workspace it does not know', async () => {
    await budgetWorkspace(gateway, 'cli-strict');
    await cli('workspaces', 'budget', 'set', 'cli-strict', 'weekly', '--limit', '5');
    for (const [args, message] of [
      [['cli-strict', 'daily', '--limit', '-1'], /limit_usd must be >= 0/],
      [['cli-strict', 'daily', '--limit', 'lots'], /limit_usd must be of type number/],
      [['cli-strict', 'hourly', '--limit', '1'], /interval must be one of "daily", "weekly", "monthly", "lifetime"/],
      [['cli-strict', 'daily', '--limit', '5'], /the daily budget \(\$5\) must be less than the weekly budget \(\$5\)/],
      [['no-such-team', 'daily', '--limit', '1'], /no-such-team is not a workspace of the organization/],
    ] as const) {
      const refused = await cli('workspaces', 'budget', 'set', ...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(message);
    }
  });
});

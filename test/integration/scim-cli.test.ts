import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { scim } from '../support/scim.js';

// Each command is a process of its own (about a second on a busy machine).
const MANY_COMMANDS = { timeout: 120_000 };
const emptyConfig = join(mkdtempSync(join(tmpdir(), 'mg-scim-')), 'gateway.yaml');
writeFileSync(emptyConfig, '# nothing configured\n');

/** `model-gateway scim token create` (from dist/: `npm run build` first) against a running server of the same deployment. */
describe.each(testEngines)('model-gateway scim token create on $name', MANY_COMMANDS, (engine) => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url, GATEWAY_CONFIG: emptyConfig });

  beforeAll(async () => {
    database = await engine.create();
    gateway = await startGateway(engine, { databaseUrl: database.url });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  it('prints a token the running server accepts at once, and a second one rotates it', async () => {
    const first = await cli('scim', 'token', 'create');
    expect(first.code, first.stderr).toBe(0);
    const token = /^token +(\S+)$/m.exec(first.stdout)?.[1] ?? '';
    expect(token).toMatch(/^scim-mg-v1-[0-9a-f]{64}$/);
    expect((await scim(gateway, token, 'GET', '/Users')).status).toBe(200);

    const second = await cli('scim', 'token', 'create', '--json');
    expect(second.code, second.stderr).toBe(0);
    const rotated = JSON.parse(second.stdout) as { data: { label: string }; token: string };
    expect(rotated.data.label).toBe(`scim-mg-v1-${rotated.token.slice(11, 14)}...${rotated.token.slice(-4)}`);
    expect((await scim(gateway, token, 'GET', '/Users')).status).toBe(401);
    expect((await scim(gateway, rotated.token, 'GET', '/Users')).status).toBe(200);
  });

  it('refuses an organization that does not exist', async () => {
    const refused = await cli('scim', 'token', 'create', '--org', 'org_nothing');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--org org_nothing is not an organization');
  });
});

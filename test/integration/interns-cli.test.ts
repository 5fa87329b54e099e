import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootstrap } from '../../src/accounts/bootstrap.js';
import { openMigratedStore } from '../../src/cli/open-database.js';
import { openStore } from '../../src/store/database.js';
import { runCli, startServe } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';

const BOOTSTRAP = 'interns-cli-bootstrap-management-key-0123456789abcdef';

describe.each(testEngines)('interns and members commands on $name', (engine) => {
  let database: TestDatabase;
  const config = join(mkdtempSync(join(tmpdir(), 'mg-cfg-')), 'gateway.yaml');
  const env = () => ({ DATABASE_URL: database.url, GATEWAY_CONFIG: config, GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: BOOTSTRAP });

  beforeAll(async () => {
    database = await engine.create();
    writeFileSync(config, '# nothing configured\n');
    // The database a first start leaves: the commands work on an existing one only.
    const store = await openMigratedStore(database.url, { info: () => undefined, warn: () => undefined });
    await bootstrap(store.db, () => new Date(), BOOTSTRAP);
    await store.close();
  });
  afterAll(async () => {
    await database.drop();
  });

  const enrolledOrganizations = async () => {
    const store = openStore(database.url);
    try {
      return (await store.db.selectFrom('intern_programme').select('organization_id').execute()).map((r) => r.organization_id);
    } finally {
      await store.close();
    }
  };

  it('enrolls and unenrolls the default organization, or the one named; refuses an unknown one', async () => {
    const enrolled = await runCli(['interns', 'enroll'], env());
    expect(enrolled.code, enrolled.stderr).toBe(0);
    const organizationId = /^enrolled (\S+)$/m.exec(enrolled.stdout)?.[1];
    expect(await enrolledOrganizations()).toEqual([organizationId]);
    expect((await runCli(['interns', 'enroll', '--org', organizationId!], env())).code).toBe(0);
    const unknown = await runCli(['interns', 'enroll', '--org', 'org_nope'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/--org org_nope is not an organization/);
    expect((await runCli(['interns', 'unenroll', '--org', organizationId!], env())).code).toBe(0);
    expect(await enrolledOrganizations()).toEqual([]);
  });

  it('removes a member by e-mail, and says so when the address is not a member', async () => {
    expect((await runCli(['members', 'add', '--email', 'Leaver@Example.com'], env())).code).toBe(0);
    const removed = await runCli(['members', 'remove', '--email', 'leaver@example.com'], env());
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/^removed leaver@example.com \(user_/);
    const again = await runCli(['members', 'remove', '--email', 'leaver@example.com'], env());
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not a member/);
  });

  it.runIf(engine.name === 'postgres')('a running server sees enrolment at once (the command notifies it)', async () => {
    const serving = await startServe(env());
    try {
      const list = () => fetch(`${serving.baseUrl}/interns`, { headers: { authorization: `Bearer ${BOOTSTRAP}` } });
      expect((await list()).status).toBe(404);
      // The notice arrives on the server's LISTEN connection shortly after the command; well inside the caches' 10 s backstop.
      expect((await runCli(['interns', 'enroll'], env())).code).toBe(0);
      await vi.waitFor(async () => expect((await list()).status).toBe(200), { timeout: 3_000 });
      expect((await runCli(['interns', 'unenroll'], env())).code).toBe(0);
      await vi.waitFor(async () => expect((await list()).status).toBe(404), { timeout: 3_000 });
    } finally {
      await serving.stop();
    }
  });
});

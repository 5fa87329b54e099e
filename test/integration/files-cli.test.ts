import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_DEFAULTS } from '../../src/files/file-settings.js';
import { directoryStorage } from '../../src/files/storage/directory-storage.js';
import { runCli } from '../support/cli.js';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/** `model-gateway files list|delete` (from dist/: `npm run build` first) beside a running server of the same deployment. */
describe.each(testEngines)('model-gateway files on $name', { timeout: 60_000 }, (engine) => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url, FILES_STORAGE: 'directory', FILES_DIR: dir });
  async function upload(content: string, filename: string, query = ''): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([content]), filename);
    const response = await fetch(`${gateway.baseUrl}/files${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.managementKey}` },
      body: form,
    });
    return ((await response.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    database = await engine.create();
    dir = mkdtempSync(join(tmpdir(), 'mg-files-cli-'));
    gateway = await startGateway(engine, {
      databaseUrl: database.url,
      files: { ...FILE_DEFAULTS, storage: directoryStorage(dir) },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the files the API keeps, by workspace too, and deletes one with its bytes', async () => {
    const team = (await call(gateway, 'POST', '/workspaces', { key: gateway.managementKey, body: { name: 'Team', slug: 'team' } })).body
      .data.id;
    const first = await upload('first file', 'first.txt');
    const second = await upload('second file', 'second.txt', `?workspace_id=${team}`);

    const listed = await cli('files', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const all = JSON.parse(listed.stdout);
    expect(all.data.map((f: { id: string }) => f.id)).toEqual([second, first]);
    expect(all.data[0]).toMatchObject({ filename: 'second.txt', workspace_id: team, size_bytes: 11, mime_type: 'text/plain' });
    const table = await cli('files', 'list', '--workspace', 'team');
    expect(table.stdout).toContain(second);
    expect(table.stdout).not.toContain(first);
    expect((await cli('files', 'list', '--limit', '0')).code).not.toBe(0);

    const deleted = await cli('files', 'delete', second);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`deleted ${second} (second.txt, 11 bytes)\n`);
    expect(readdirSync(dir)).toEqual([first]);
    expect((await call(gateway, 'GET', `/files/${second}?workspace_id=${team}`, { key: gateway.managementKey })).status).toBe(404);
    const again = await cli('files', 'delete', second);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`File ${second} not found`);
  });
});

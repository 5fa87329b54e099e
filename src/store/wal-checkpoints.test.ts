import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../test/support/databases.js';
import { until } from '../../test/support/until.js';
import { openStore, type Store } from './database.js';
import { checkpointInBackground } from './wal-checkpoints.js';

const sqliteEngine = testEngines.find((e) => e.name === 'sqlite')!;

describe('checkpointInBackground', () => {
  let database: TestDatabase;
  let store: Store;

  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  const openFileStore = async () => {
    database = await sqliteEngine.create();
    store = openStore(database.url);
    const sqlite = store.sqlite!.database;
    sqlite.exec('CREATE TABLE notes (body TEXT NOT NULL)');
    // Everything so far goes into the database file, so that what follows is in the WAL only.
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return sqlite;
  };

  it('copies the WAL into the database file from its worker, not from the store’s commits', async () => {
    const sqlite = await openFileStore();
    const file = sqlite.name;
    const checkpoints = checkpointInBackground(store, { intervalMs: 10 });
    const before = statSync(file).size;
    const insert = sqlite.prepare('INSERT INTO notes (body) VALUES (?)');
    // 2,000 pages: past SQLite's own threshold, under the store's backstop.
    sqlite.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(4_000));
    })();
    const grown = before + 2_000 * 4_000;
    expect(
      await until(
        () => statSync(file).size,
        (size) => size > grown,
        5_000,
      ),
    ).toBeGreaterThan(grown);
    await checkpoints.stop();
    expect(sqlite.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 2_000 });
  });

  it('leaves the store usable and its own checkpoints at SQLite’s threshold once stopped', async () => {
    const sqlite = await openFileStore();
    const checkpoints = checkpointInBackground(store, { intervalMs: 10 });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await checkpoints.stop();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    sqlite.prepare('INSERT INTO notes (body) VALUES (?)').run('after');
    expect(sqlite.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'after' }]);
  });

  it('reports a worker that cannot run and gives the checkpoints back to the store’s connection', async () => {
    const sqlite = await openFileStore();
    const errors: string[] = [];
    // The store's connection, seen by the worker under a file it cannot open.
    const unreachable = {
      memory: false,
      name: '/nonexistent-directory/gateway.sqlite',
      get open() {
        return sqlite.open;
      },
      pragma: (source: string, options?: { simple: boolean }) => sqlite.pragma(source, options),
    };
    const checkpoints = checkpointInBackground(
      { sqlite: { ...store.sqlite!, database: unreachable as unknown as typeof sqlite } },
      {
        onError: (message) => errors.push(message),
      },
    );
    // Without stop(): the worker's death alone hands the checkpoints back.
    expect(
      await until(
        () => sqlite.pragma('wal_autocheckpoint', { simple: true }),
        (pages) => pages === 1_000,
        5_000,
      ),
    ).toBe(1_000);
    expect(errors.join(' ')).toMatch(/directory does not exist|unable to open/i);
    await checkpoints.stop();
  });

  it('keeps a process that has nothing else to do alive until stop() is done', async () => {
    database = await sqliteEngine.create();
    store = openStore(database.url);
    const moduleUrl = (name: string) => JSON.stringify(new URL(name, import.meta.url).href);
    // The shutdown of `serve`: the server is closed, so only the worker could keep the process alive.
    const script = `
      const { openStore } = await import(${moduleUrl('./database.ts')});
      const { checkpointInBackground } = await import(${moduleUrl('./wal-checkpoints.ts')});
      const store = openStore(${JSON.stringify(database.url)});
      await checkpointInBackground(store).stop();
      await store.close();
      process.stdout.write('stopped');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('stopped');
  });

  it('runs nothing for an in-memory store', async () => {
    database = { url: 'sqlite::memory:', drop: async () => {} };
    store = openStore(database.url);
    const checkpoints = checkpointInBackground(store);
    expect(store.sqlite!.database.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    await expect(checkpoints.stop()).resolves.toBeUndefined();
  });
});

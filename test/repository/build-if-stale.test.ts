import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/build-if-stale.mjs', import.meta.url);
const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;

/** A project whose build only counts itself: what the script runs, and how often. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'mg-build-'));
  mkdirSync(join(root, 'scripts'));
  cpSync(SCRIPT, join(root, 'scripts', 'build-if-stale.mjs'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), '');
  const build = 'mkdir -p dist && touch dist/main.js && echo built >> builds';
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fake', scripts: { build } }));
  return root;
}

const check = (root: string) => run(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root });
const builds = (root: string) => (existsSync(join(root, 'builds')) ? readFileSync(join(root, 'builds'), 'utf8').split('\n').length - 1 : 0);

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('scripts/build-if-stale.mjs', () => {
  it('is what npm install, npm start and npm run demo run before them, so that installing and starting builds once', () => {
    expect([scripts.prepare, scripts.prestart, scripts.predemo]).toEqual(Array(3).fill('node scripts/build-if-stale.mjs'));
  });

  it('builds when dist/ is missing, not again while nothing changed, and again once a source is newer', async () => {
    root = project();
    await check(root);
    expect(builds(root)).toBe(1);
    await check(root);
    await check(root);
    expect(builds(root)).toBe(1);
    // The build was a minute ago; a source changed since.
    const ago = (ms: number) => new Date(Date.now() - ms);
    utimesSync(join(root, 'dist', '.build-stamp'), ago(60_000), ago(60_000));
    utimesSync(join(root, 'src', 'main.ts'), ago(30_000), ago(30_000));
    await check(root);
    expect(builds(root)).toBe(2);
    await check(root);
    expect(builds(root)).toBe(2);
  });

  it('builds again when dist/main.js is gone', async () => {
    root = project();
    await check(root);
    rmSync(join(root, 'dist', 'main.js'));
    await check(root);
    expect(builds(root)).toBe(2);
  });
});

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where built checkouts of other commits are kept between runs: a tool cache, which no linter, test runner or git looks at. */
const BUILDS_PARENT = resolve('node_modules/.cache');
const BUILDS = join(BUILDS_PARENT, 'bench-builds');

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });

/**
 * A built checkout of `ref` beside the working tree: its files (git archive), its dependencies and its dist/, made
 * once per commit and reused. The dependencies start as a copy of the working tree's node_modules, then `npm
 * install` brings them to that commit's lockfile, which is much faster than a clean install when the two differ
 * little (and installs nothing when they are the same).
 */
export function prepareCheckout(ref: string, progress: (message: string) => void): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(BUILDS, commit);
  const done = join(dir, '.built');
  if (existsSync(done)) return { dir, commit };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  progress(`${ref} (${commit.slice(0, 7)}): extracting into ${dir}`);
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  progress('copying node_modules');
  // Entry by entry: the cache holding this very copy lives in node_modules, and cpSync refuses a copy into its own
  // subdirectory even when a filter would leave that subdirectory out.
  for (const entry of readdirSync(resolve('node_modules'))) {
    if (entry === '.cache') continue;
    cpSync(resolve('node_modules', entry), join(dir, 'node_modules', entry), { recursive: true, verbatimSymlinks: true });
  }
  if (readFileSync(join(dir, 'package-lock.json'), 'utf8') !== readFileSync(resolve('package-lock.json'), 'utf8')) {
    progress(`its lockfile differs: npm install`);
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save'], dir);
  }
  progress('building');
  run('npm', ['run', 'build'], dir);
  execFileSync('touch', [done]);
  return { dir, commit };
}

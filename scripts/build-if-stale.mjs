// `npm run build`, only when dist/ is missing or older than what it is built from: prepare (npm install), prestart and
// predemo all run this, so `npm install && npm run demo` builds once, and a second `npm run demo` starts at once.
// The stamp is written after a build this script ran; a build run by hand leaves the next check to build once more.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What dist/ is built from (the tests under src/ too: a stale check may build once more, never less). */
const INPUTS = ['src', 'console', 'examples', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const STAMP = join('dist', '.build-stamp');

/** The newest modification time (ms) under `path`, 0 when it does not exist. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const built = existsSync(join('dist', 'main.js')) && existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
if (built > 0 && INPUTS.every((input) => newest(input) <= built)) {
  process.stderr.write('dist/ is up to date\n');
} else {
  const started = Date.now();
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // Stamped with the time the build began: an input changed while it ran is newer, and builds next time.
  writeFileSync(STAMP, '');
  utimesSync(STAMP, new Date(started), new Date(started));
}

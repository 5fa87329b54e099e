import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The benchmark measures the built server (dist/), as `npm start` runs it; build once if it is missing. */
export function ensureBuilt(): void {
  if (existsSync('dist/main.js')) return;
  process.stderr.write('bench: dist/main.js is missing, running npm run build\n');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

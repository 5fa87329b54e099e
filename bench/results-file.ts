import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const RESULTS_DIR = join('bench', 'results');

/** A name per run, sortable by time: 2026-11-21T13-29-48Z[-quick|-profile]. */
export function runStamp(suffix: string): string {
  return (
    new Date()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z')
      .replaceAll(':', '-') + suffix
  );
}

/** Everything measured, as JSON, under bench/results/ (gitignored). */
export function writeResults(stamp: string, results: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${stamp}.json`);
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}

/** Keeps the gateway's profile beside the results, to open in Chrome DevTools. */
export function keepProfile(stamp: string, profilePath: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${stamp}-${basename(profilePath)}`);
  copyFileSync(profilePath, path);
  return path;
}

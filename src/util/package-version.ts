import { readFileSync } from 'node:fs';

/**
 * The version in the package's own package.json, one folder above src/ and
 * dist/ alike (npm ships package.json with every package).
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

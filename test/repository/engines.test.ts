import { existsSync, readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const manifest = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
const oldestSupported = semver.minVersion(manifest.engines.node);

describe('the supported Node.js versions', () => {
  it('satisfy every installed dependency, so that a clean install prints no engine warning', () => {
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path !== '' && existsSync(new URL(path, root)))
      .flatMap(([path, entry]) => {
        const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
        return range && oldestSupported && !semver.satisfies(oldestSupported, range) ? [`${path} needs node ${range}`] : [];
      });
    expect(refused).toEqual([]);
  });

  it('are the ones the README promises', () => {
    expect(read('README.md')).toContain(`Node.js ≥ ${oldestSupported?.major}.${oldestSupported?.minor}`);
  });
});

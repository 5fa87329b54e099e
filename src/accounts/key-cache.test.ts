import { describe, expect, it } from 'vitest';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { KeyCache } from './key-cache.js';

const row = (hash: string) => ({ hash, name: 'k' }) as ApiKeyRow;

describe('KeyCache', () => {
  it('loads a key once and serves it from memory afterwards', async () => {
    let loads = 0;
    const cache = new KeyCache(async (hash) => {
      loads++;
      return row(hash);
    });
    await cache.get('a');
    await cache.get('a');
    expect(loads).toBe(1);
  });

  it('shares one load between concurrent misses', async () => {
    let loads = 0;
    const cache = new KeyCache(async (hash) => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return row(hash);
    });
    await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
    expect(loads).toBe(1);
  });

  it('reloads after invalidation', async () => {
    let version = 0;
    const cache = new KeyCache(async (hash) => ({ ...row(hash), name: `v${++version}` }));
    expect((await cache.get('a'))?.name).toBe('v1');
    cache.invalidate('a');
    expect((await cache.get('a'))?.name).toBe('v2');
  });

  it('remembers an unknown key only briefly', async () => {
    let exists = false;
    let loads = 0;
    const cache = new KeyCache(
      async (hash) => {
        loads++;
        return exists ? row(hash) : undefined;
      },
      { missingTtlMs: 20 },
    );
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('a')).toBeUndefined();
    expect(loads).toBe(1);
    exists = true;
    await new Promise((r) => setTimeout(r, 40));
    expect((await cache.get('a'))?.hash).toBe('a');
  });
});

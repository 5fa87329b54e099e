import { describe, expect, it } from 'vitest';
import { KeyCache } from '../accounts/key-cache.js';
import type { ApiKeyRow } from './repositories/api-keys.js';

const key = { hash: 'h', name: 'known' } as ApiKeyRow;
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('a cache over the database while it is away (staleOnOutage, through KeyCache)', () => {
  function cache() {
    const database = { away: false, reads: 0, failure: refused as () => Error };
    const keys = new KeyCache(
      async (hash) => {
        database.reads++;
        if (database.away) throw database.failure();
        return hash === key.hash ? key : undefined;
      },
      { ttlMs: 1 },
    );
    return { keys, database };
  }
  const expire = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('serves a known entry as it was when reading it again fails for want of the database, and reads it again once back', async () => {
    const { keys, database } = cache();
    expect(await keys.get('h')).toBe(key);
    await expire();
    database.away = true;
    expect(await keys.get('h')).toBe(key);
    database.away = false;
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const reads = database.reads;
    expect(await keys.get('h')).toBe(key);
    expect(database.reads).toBe(reads + 1);
  });

  it('fails for what it never read, and for a failure that is not an outage', async () => {
    const { keys, database } = cache();
    database.away = true;
    await expect(keys.get('h')).rejects.toThrow('ECONNREFUSED');
    database.away = false;
    expect(await keys.get('h')).toBe(key);
    await expire();
    database.away = true;
    database.failure = () => new TypeError('a bug');
    await expect(keys.get('h')).rejects.toThrow('a bug');
  });
});

import { describe, expect, it } from 'vitest';
import { closeAllPools, poolFor } from './connection-pools.js';

describe('poolFor', () => {
  it('keeps one pool per origin', async () => {
    const pool = poolFor('http://127.0.0.1:1');
    expect(poolFor('http://127.0.0.1:1')).toBe(pool);
    expect(poolFor('http://127.0.0.1:2')).not.toBe(pool);
    await closeAllPools();
    expect(pool.closed).toBe(true);
    expect(poolFor('http://127.0.0.1:1')).not.toBe(pool);
    await closeAllPools();
  });
});

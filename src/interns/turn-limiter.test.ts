import { describe, expect, it } from 'vitest';
import { turnLimiter } from './turn-limiter.js';

describe('turnLimiter (in memory)', () => {
  it('allows turns_per_minute turns per intern, then refuses with a retry time; no quota never refuses', async () => {
    const limit = turnLimiter();
    expect(await limit('a', 2)).toEqual({ allowed: true });
    expect(await limit('a', 2)).toEqual({ allowed: true });
    const refused = await limit('a', 2);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await limit('b', 2)).toEqual({ allowed: true });
    for (let i = 0; i < 5; i++) expect(await limit('c', null)).toEqual({ allowed: true });
  });
});

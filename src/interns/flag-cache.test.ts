import { describe, expect, it } from 'vitest';
import { FlagCache } from './flag-cache.js';

describe('FlagCache', () => {
  it('loads once per key until invalidated, and shares concurrent loads', async () => {
    const answers = new Map([
      ['a', true],
      ['b', false],
    ]);
    const loads: string[] = [];
    const cache = new FlagCache(async (key) => {
      loads.push(key);
      return answers.get(key) ?? false;
    }, 60_000);
    expect(await Promise.all([cache.has('a'), cache.has('a')])).toEqual([true, true]);
    expect(await cache.has('b')).toBe(false);
    expect(await cache.has('b')).toBe(false);
    expect(loads).toEqual(['a', 'b']);
    answers.set('a', false);
    expect(await cache.has('a')).toBe(true);
    cache.invalidate('a');
    expect(await cache.has('a')).toBe(false);
    expect(loads).toEqual(['a', 'b', 'a']);
  });
});

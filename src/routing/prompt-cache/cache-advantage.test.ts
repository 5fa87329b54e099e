import { describe, expect, it } from 'vitest';
import { cacheAdvantage } from './cache-advantage.js';

describe('cacheAdvantage', () => {
  const others = [{ prompt: 1e-6 }, { prompt: 3e-6 }];
  it.each([
    ['a cache read under every uncached prompt', { input_cache_read: 0.5e-6 }, true],
    ['a cache read as dear as the cheapest prompt', { input_cache_read: 1e-6 }, false],
    ['no cache-read price', {}, false],
    ['a discount that brings the read under', { input_cache_read: 1.2e-6, discount: 0.5 }, true],
  ])('%s: cheaper %s', (_, cached, cheaper) => {
    expect(cacheAdvantage(cached, others).cheaper).toBe(cheaper);
  });

  it('gives the two prices it compared', () => {
    expect(cacheAdvantage({ input_cache_read: 0.25e-6 }, others)).toEqual({ cheaper: true, read: 0.25e-6, cold: 1e-6 });
  });
});

import { describe, expect, it } from 'vitest';
import { LimitedRefusals } from './limited-refusals.js';

describe('LimitedRefusals', () => {
  it("admits a key's first 429 of a window, none after it until the window ends, then the next one", () => {
    let now = 1_000_000;
    const limited = new LimitedRefusals(() => now);
    expect(limited.admit('a', 10)).toBe(true);
    expect(limited.admit('a', 9)).toBe(false);
    expect(limited.admit('b', 10)).toBe(true);
    now += 9_999;
    expect(limited.admit('a', 1)).toBe(false);
    now += 1;
    expect(limited.admit('a', 10)).toBe(true);
    expect(limited.admit('a', 10)).toBe(false);
  });

  it('forgets the keys whose window is over once it holds many', () => {
    let now = 0;
    const limited = new LimitedRefusals(() => now, 2);
    limited.admit('a', 1);
    limited.admit('b', 5);
    now = 2_000;
    // The third key sweeps "a" (over) and keeps "b" (still limited).
    expect(limited.admit('c', 1)).toBe(true);
    expect(limited.admit('b', 1)).toBe(false);
    expect(limited.admit('a', 1)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { backoffMs } from './destination-sender.js';

describe('backoffMs', () => {
  const options = { backoffBaseMs: 1_000, backoffMaxMs: 60_000 };
  it('doubles from the base to the maximum, jittered down by up to half, and honours Retry-After within the maximum', () => {
    expect(backoffMs(1, options, 1)).toBe(1_000);
    expect(backoffMs(3, options, 1)).toBe(4_000);
    expect(backoffMs(3, options, 0)).toBe(2_000);
    expect(backoffMs(20, options, 1)).toBe(60_000);
    expect(backoffMs(1, options, 1, 5_000)).toBe(5_000);
    expect(backoffMs(1, options, 1, 3_600_000)).toBe(60_000);
  });
});

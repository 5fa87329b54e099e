import { describe, expect, it } from 'vitest';
import { pushAll } from './push-all.js';

describe('pushAll', () => {
  it('appends more items than a spread into push can take', () => {
    const target = [0];
    pushAll(target, new Array<number>(500_000).fill(1));
    expect(target).toHaveLength(500_001);
    expect(target[0]).toBe(0);
    expect(target.at(-1)).toBe(1);
  });
});

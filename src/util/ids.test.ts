import { describe, expect, it } from 'vitest';
import { newGenerationId, newRequestId, randomSlice } from './ids.js';

describe('ids', () => {
  it('hands out random slices that never repeat, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(randomSlice(10).toString('hex'));
    expect(seen.size).toBe(2000);
    expect(randomSlice(5000)).toHaveLength(5000);
  });

  it('formats generation and request ids', () => {
    expect(newGenerationId(new Date('2026-11-23T00:00:00Z'))).toMatch(/^gen-1795392000-[0-9a-f]{20}$/);
    expect(newRequestId()).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
  });
});

import { describe, expect, it } from 'vitest';
import { formatBytes, formatPercent } from './format';

describe('formatBytes', () => {
  it('counts bytes below a KiB, then uses the largest unit the size fills, to one decimal', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1,023 bytes');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(512 * 1024 * 1024)).toBe('512 MiB');
    expect(formatBytes(3 * 1024 ** 5)).toBe('3,072 TiB');
  });
});

describe('formatPercent', () => {
  it('shows a share to one decimal, and a dash for none', () => {
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(83.333)).toBe('83.3%');
    expect(formatPercent(null)).toBe('—');
  });
});

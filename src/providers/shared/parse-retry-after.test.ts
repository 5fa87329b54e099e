import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from './parse-retry-after.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfterMs', () => {
  it('reads Retry-After delay seconds', () => {
    expect(parseRetryAfterMs({ 'retry-after': '7' }, now)).toBe(7000);
    expect(parseRetryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
  });

  it('reads Retry-After as an HTTP date, relative to now', () => {
    expect(parseRetryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30_000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
  });

  it('prefers retry-after-ms over Retry-After', () => {
    expect(parseRetryAfterMs({ 'retry-after-ms': '1234.5', 'retry-after': '2' }, now)).toBe(1234.5);
  });

  it('falls back to Retry-After when retry-after-ms is unreadable', () => {
    expect(parseRetryAfterMs({ 'retry-after-ms': 'soon', 'retry-after': '2' }, now)).toBe(2000);
  });

  it('is undefined when absent, negative or unreadable', () => {
    expect(parseRetryAfterMs({}, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': '-3' }, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'later' }, now)).toBeUndefined();
  });

  it('uses the first of repeated headers', () => {
    expect(parseRetryAfterMs({ 'retry-after': ['3', '9'] }, now)).toBe(3000);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './intern-record.js';

describe('intern list cursors', () => {
  it('round-trip, and refuse what we did not issue', () => {
    const cursor = encodeCursor({ created_at: '2026-11-23T00:00:00.000Z', id: 'intern_x' });
    expect(decodeCursor(cursor)).toEqual({ createdAt: '2026-11-23T00:00:00.000Z', id: 'intern_x' });
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(decodeCursor(Buffer.from('["nope","x"]').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('{"a":1}').toString('base64url'))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { BODY_KEY_WINDOW_MS, bodyHash, canonicalJson, createKeyOf, HEADER_KEY_WINDOW_MS } from './create-key.js';

describe('create keys', () => {
  it('hashes a body whatever the order of its fields, and tells different bodies apart', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: null, e: 'x' }], c: true } })).toBe('{"a":{"c":true,"d":[2,{"e":"x","f":null}]},"b":1}');
    expect(bodyHash({ name: 'a', model: 'm' })).toBe(bodyHash({ model: 'm', name: 'a' }));
    expect(bodyHash({ name: 'a' })).not.toBe(bodyHash({ name: 'b' }));
    expect(bodyHash({ name: 'a', tools: ['notify'] })).not.toBe(bodyHash({ name: 'a', tools: ['notify', 'http_fetch'] }));
  });

  it('takes the Idempotency-Key header of 1 to 255 characters for a day, and derives one from the body for an hour without it', () => {
    expect(createKeyOf('k-1', 'h')).toEqual({ source: 'header', key: 'k-1', windowMs: HEADER_KEY_WINDOW_MS });
    expect(createKeyOf('x'.repeat(255), 'h').key).toHaveLength(255);
    expect(createKeyOf(undefined, 'h')).toEqual({ source: 'body', key: 'h', windowMs: BODY_KEY_WINDOW_MS });
    expect(HEADER_KEY_WINDOW_MS).toBe(86_400_000);
    expect(BODY_KEY_WINDOW_MS).toBe(3_600_000);
    for (const bad of ['', 'x'.repeat(256)]) {
      expect(() => createKeyOf(bad, 'h')).toThrow(
        expect.objectContaining({
          statusCode: 400,
          message: expect.stringContaining('Idempotency-Key'),
          metadata: { reason: 'bad_request', retryable: false },
        }),
      );
    }
  });
});

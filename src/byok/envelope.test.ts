import { describe, expect, it } from 'vitest';
import { envelope, keyLabel, masterKeyId, readMasterKeys } from './envelope.js';

const A = 'a1'.repeat(32);
const B = 'b2'.repeat(32);

describe('envelope', () => {
  it('seals a key under a data key of its own that the master key wraps, and opens it', () => {
    const box = envelope([A]);
    const sealed = box.seal('sk-secret');
    expect(sealed.masterKeyId).toBe(masterKeyId(A));
    expect(JSON.stringify(sealed)).not.toContain('sk-secret');
    expect(box.open(sealed)).toBe('sk-secret');
    // Two seals of one key share nothing: each has its own data key.
    expect(box.seal('sk-secret').wrappedDataKey).not.toBe(sealed.wrappedDataKey);
  });

  it('rewraps under a new master key, keeping the sealed key, and forgets the old key once it is gone', () => {
    const old = envelope([A]).seal('sk-secret');
    const rotated = envelope([B, A]);
    expect(rotated.open(old)).toBe('sk-secret');
    const moved = { ...old, ...rotated.rewrap(old) };
    expect(moved.masterKeyId).toBe(masterKeyId(B));
    expect(envelope([B]).open(moved)).toBe('sk-secret');
    expect(() => envelope([B]).open(old)).toThrow(/not configured/);
    expect(rotated.rewrap(moved)).toEqual({ wrappedDataKey: moved.wrappedDataKey, masterKeyId: moved.masterKeyId });
  });

  it('refuses a tampered row', () => {
    const box = envelope([A]);
    const sealed = box.seal('sk-secret');
    expect(() => box.open({ ...sealed, sealedKey: box.seal('other').sealedKey })).toThrow();
  });
});

describe('readMasterKeys', () => {
  it('reads the current key then the previous ones, none when unset', () => {
    expect(readMasterKeys({})).toBeUndefined();
    expect(readMasterKeys({ BYOK_MASTER_KEY: B, BYOK_MASTER_KEYS_PREVIOUS: ` ${A} ,` })).toEqual([B, A]);
  });

  it('refuses keys that are not 32 bytes of hex, and previous keys without a current one', () => {
    expect(() => readMasterKeys({ BYOK_MASTER_KEY: 'short' })).toThrow('BYOK_MASTER_KEY must be 64 hex digits (32 bytes)');
    expect(() => readMasterKeys({ BYOK_MASTER_KEY: A, BYOK_MASTER_KEYS_PREVIOUS: 'x' })).toThrow(
      'BYOK_MASTER_KEYS_PREVIOUS must be 64 hex digits',
    );
    expect(() => readMasterKeys({ BYOK_MASTER_KEYS_PREVIOUS: A })).toThrow('without BYOK_MASTER_KEY');
  });
});

describe('keyLabel', () => {
  it('shows the first and last characters only', () => {
    expect(keyLabel('sk-proj-abcdefghAbCd')).toBe('sk-...AbCd');
    expect(keyLabel('short')).toBe('s...t');
  });
});

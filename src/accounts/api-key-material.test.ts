import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, KEY_PREFIX, maskApiKey } from './api-key-material.js';

describe('api key material', () => {
  it('generates distinct prefixed keys with 256 bits of secret', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^sk-mg-v1-[0-9a-f]{64}$/);
  });

  it('hashes with SHA-256 hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('masks all but three leading and four trailing characters of the secret', () => {
    const key = `${KEY_PREFIX}0e6f44a47a05f1dad2ad7e88c4c1d6b77688157716fb1a5271146f7464951c96`;
    expect(maskApiKey(key)).toBe('sk-mg-v1-0e6...1c96');
  });

  it('never reveals a short foreign key', () => {
    expect(maskApiKey('short')).toBe('***');
  });
});

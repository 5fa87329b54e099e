import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretBox } from './secret-box.js';

describe('secretBox', () => {
  const box = secretBox(randomBytes(32).toString('hex'));

  it('seals to text that does not contain the value, and opens it again', () => {
    const sealed = box.seal('s3cr3t-value');
    expect(sealed).not.toContain('s3cr3t');
    expect(box.open(sealed)).toBe('s3cr3t-value');
    expect(box.seal('s3cr3t-value')).not.toBe(sealed);
  });

  it('refuses a tampered or foreign ciphertext', () => {
    const sealed = box.seal('v');
    const [iv, tag, body] = sealed.split('.');
    expect(() => box.open(`${iv}.${tag}.${Buffer.from('x').toString('base64url')}${body}`)).toThrow();
    expect(() => secretBox(randomBytes(32).toString('hex')).open(sealed)).toThrow();
  });

  it('fingerprints equal values equally, without the value', () => {
    expect(box.fingerprint('a')).toBe(box.fingerprint('a'));
    expect(box.fingerprint('a')).not.toBe(box.fingerprint('b'));
  });
});

import { describe, expect, it } from 'vitest';
import { endUserHasher, hashEndUser, upstreamEndUser } from './hash-end-user.js';

describe('hashEndUser', () => {
  it('is stable for one secret and user', () => {
    expect(hashEndUser('s3cret', 'alice@example.com')).toBe(hashEndUser('s3cret', 'alice@example.com'));
  });

  it('matches HMAC-SHA256 in base64url (a known vector)', () => {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
    expect(hashEndUser('Jefe', 'what do ya want for nothing?')).toBe(
      Buffer.from('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', 'hex').toString('base64url'),
    );
  });

  it('differs per secret and per user, and never contains the raw value', () => {
    const hash = hashEndUser('a', 'alice');
    expect(hashEndUser('b', 'alice')).not.toBe(hash);
    expect(hashEndUser('a', 'bob')).not.toBe(hash);
    expect(hash).not.toContain('alice');
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('endUserHasher', () => {
  it('gives hashEndUser’s answer, first and when remembered, and forgets beyond its size', () => {
    const hash = endUserHasher('s3cret', 2);
    for (const user of ['alice', 'bob', 'alice', 'carol', 'bob']) expect(hash(user)).toBe(hashEndUser('s3cret', user));
  });
});

describe('upstreamEndUser', () => {
  it('is the hash when the client named an end user, even an empty one', () => {
    expect(upstreamEndUser({ user: 'alice' }, 'h')).toBe('h');
    expect(upstreamEndUser({ user: '' }, 'h')).toBe('h');
  });

  it('is nothing when the client named none', () => {
    expect(upstreamEndUser({}, 'h')).toBeUndefined();
  });
});

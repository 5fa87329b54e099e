import { describe, expect, it } from 'vitest';
import { redactSecrets, referencedSecrets, substituteSecrets } from './secrets.js';

describe('vault secrets in tool arguments', () => {
  const args = {
    url: 'https://api.example.com',
    headers: { authorization: 'Bearer {{secret:API_TOKEN}}', x: ['{{ secret:OTHER }}'] },
    n: 3,
  };

  it('finds every referenced name once', () => {
    expect(referencedSecrets(args).sort()).toEqual(['API_TOKEN', 'OTHER']);
    expect(referencedSecrets({ plain: 'no secrets', n: 1 })).toEqual([]);
  });

  it('substitutes values in strings only, leaving unknown references as they are', () => {
    expect(substituteSecrets(args, { API_TOKEN: 't0k"en' })).toEqual({
      url: 'https://api.example.com',
      headers: { authorization: 'Bearer t0k"en', x: ['{{ secret:OTHER }}'] },
      n: 3,
    });
  });

  it('puts references back where a result echoes a value', () => {
    expect(redactSecrets('auth was Bearer abc123 and abc', { A: 'abc', B: 'abc123', EMPTY: '' })).toBe(
      'auth was Bearer {{secret:B}} and {{secret:A}}',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { checkMetricsToken } from './metrics-token.js';

describe('checkMetricsToken', () => {
  it('takes the token as a bearer token, in any case of the scheme', () => {
    expect(checkMetricsToken('Bearer s3cret-token', 's3cret-token')).toBe('ok');
    expect(checkMetricsToken('bearer s3cret-token', 's3cret-token')).toBe('ok');
  });

  it('tells a missing token from a wrong one', () => {
    expect(checkMetricsToken(undefined, 's3cret-token')).toBe('missing');
    expect(checkMetricsToken('Basic abc', 's3cret-token')).toBe('missing');
    expect(checkMetricsToken('Bearer ', 's3cret-token')).toBe('missing');
    expect(checkMetricsToken('Bearer s3cret-tokem', 's3cret-token')).toBe('invalid');
    expect(checkMetricsToken('Bearer s3cret', 's3cret-token')).toBe('invalid');
  });
});

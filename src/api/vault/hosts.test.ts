import { describe, expect, it } from 'vitest';
import { normalizeHosts } from './hosts.js';

describe('normalizeHosts', () => {
  it('lowercases, drops a trailing dot and collapses duplicates', () => {
    expect(normalizeHosts(['API.Example.com.', 'api.example.com', 'x.io'])).toEqual({ hosts: ['api.example.com', 'x.io'] });
  });
  it.each(['https://a.com', 'a.com:443', 'a.com/x', '*.a.com', '', 'a..com', '-a.com'])('refuses %j', (host) => {
    expect(normalizeHosts([host])).toHaveProperty('problem');
  });
});

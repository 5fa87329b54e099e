import { describe, expect, it } from 'vitest';
import { domainRefusal, matchesDomainRule } from './domain-rules.js';

describe('matchesDomainRule', () => {
  it.each([
    ['https://example.com/a', 'example.com', true],
    ['https://docs.example.com/a', 'example.com', true],
    ['https://notexample.com/', 'example.com', false],
    ['https://example.com.evil.test/', 'example.com', false],
    ['https://EXAMPLE.com/', 'Example.COM', true],
    ['https://example.com./', 'example.com', true],
    ['https://a.substack.com/p', '*.substack.com', true],
    ['https://substack.com/p', '*.substack.com', false],
    ['https://openai.com/blog/post', 'openai.com/blog', true],
    ['https://openai.com/blog', 'openai.com/blog/', true],
    ['https://openai.com/blogger', 'openai.com/blog', false],
    ['https://openai.com/research', 'openai.com/blog', false],
    ['https://example.com/', 'https://example.com', true],
  ])('%s against %s → %s', (url, rule, expected) => {
    expect(matchesDomainRule(new URL(url), rule)).toBe(expected);
  });
});

describe('domainRefusal', () => {
  it('lets anything through without lists', () => {
    expect(domainRefusal(new URL('https://example.com/'), {})).toBeUndefined();
  });

  it('refuses what is outside the allowed domains, naming them', () => {
    expect(domainRefusal(new URL('https://other.test/'), { allowed: ['example.com'] })).toBe(
      'other.test is not in the allowed domains (example.com)',
    );
    expect(domainRefusal(new URL('https://docs.example.com/'), { allowed: ['example.com'] })).toBeUndefined();
  });

  it('lets a blocked rule win over an allowed one', () => {
    expect(domainRefusal(new URL('https://private.example.com/'), { allowed: ['example.com'], blocked: ['private.example.com'] })).toBe(
      'private.example.com is blocked by the rule "private.example.com"',
    );
  });
});

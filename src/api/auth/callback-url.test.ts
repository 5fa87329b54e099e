import { describe, expect, it } from 'vitest';
import { checkCallbackUrl } from './callback-url.js';

describe('checkCallbackUrl', () => {
  it.each(['https://app.example/cb', 'https://app.example:443/cb', 'https://app.example:3000/cb'])('accepts %s', (url) => {
    expect(checkCallbackUrl(url).href).toBe(new URL(url).href);
  });

  it.each([
    'http://app.example/cb',
    'https://app.example:8443/cb',
    'http://localhost:3000/cb',
    'ftp://app.example/cb',
    'https://app.example:80/cb',
  ])('refuses %s naming the rule', (url) => {
    expect(() => checkCallbackUrl(url)).toThrow('callback_url must be an https URL on port 443 or 3000');
  });

  it('refuses what is not a URL', () => {
    expect(() => checkCallbackUrl('not a url')).toThrow('callback_url must be a valid absolute URL');
  });
});

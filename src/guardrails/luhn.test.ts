import { describe, expect, it } from 'vitest';
import { passesLuhn } from './luhn.js';

describe('passesLuhn', () => {
  it('accepts card numbers with a valid check digit', () => {
    for (const card of ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117']) expect(passesLuhn(card)).toBe(true);
  });
  it('refuses a wrong check digit and the empty string', () => {
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('1234567812345678')).toBe(false);
    expect(passesLuhn('')).toBe(false);
  });
});

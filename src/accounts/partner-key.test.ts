import { describe, expect, it } from 'vitest';
import { partnerKeyProblem } from './partner-key.js';

describe('partnerKeyProblem', () => {
  it('accepts a random hex key', () => {
    expect(partnerKeyProblem('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBeUndefined();
  });
  it('refuses a short key', () => {
    expect(partnerKeyProblem('abc')).toBe('must be at least 32 characters long');
  });
  it('refuses a long key with little variety', () => {
    expect(partnerKeyProblem('ab'.repeat(32))).toBe('does not have sufficient entropy');
    expect(partnerKeyProblem('a'.repeat(64))).toBe('does not have sufficient entropy');
  });
  it('refuses whitespace', () => {
    expect(partnerKeyProblem('9f86d081884c7d659a2feaa0c55ad015 a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBe('must not contain whitespace');
  });
});

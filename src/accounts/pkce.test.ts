import { describe, expect, it } from 'vitest';
import { verifierMatchesChallenge } from './pkce.js';

describe('PKCE verification', () => {
  // The example of RFC 7636, appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('accepts the RFC 7636 S256 example', () => {
    expect(verifierMatchesChallenge(verifier, challenge, 'S256')).toBe(true);
  });

  it('refuses a different verifier', () => {
    expect(verifierMatchesChallenge(`${verifier.slice(0, -1)}l`, challenge, 'S256')).toBe(false);
  });

  it('refuses a padded challenge', () => {
    expect(verifierMatchesChallenge(verifier, `${challenge}=`, 'S256')).toBe(false);
  });

  it('compares plain challenges as they are', () => {
    expect(verifierMatchesChallenge(verifier, verifier, 'plain')).toBe(true);
    expect(verifierMatchesChallenge(verifier, challenge, 'plain')).toBe(false);
  });
});

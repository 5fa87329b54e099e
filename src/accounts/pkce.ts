import { createHash, timingSafeEqual } from 'node:crypto';

export type CodeChallengeMethod = 'S256' | 'plain';

/** RFC 7636 §4.6: S256 compares BASE64URL(SHA256(verifier)) without padding; plain compares as is. */
export function verifierMatchesChallenge(verifier: string, challenge: string, method: CodeChallengeMethod): boolean {
  const derived = method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  const a = Buffer.from(derived);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const CODE_VERIFIER_PATTERN = '^[A-Za-z0-9\\-._~]{43,128}$';

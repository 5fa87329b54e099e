import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header carries the metrics token as its bearer token: 'missing' without
 * one, 'invalid' for another. Compared in constant time (over digests, so lengths do not show).
 */
export function checkMetricsToken(authorization: string | undefined, token: string): 'ok' | 'missing' | 'invalid' {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return 'missing';
  return timingSafeEqual(digest(match[1]), digest(token)) ? 'ok' : 'invalid';
}

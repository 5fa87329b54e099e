import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'sk-mg-v1-';

/** A new secret key: the prefix and 32 random bytes as hex. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('hex');
}

/** The record's `hash`: SHA-256 of the whole key, hex. The only form of the key that is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The record's `label`: enough of the key to recognise it, never enough to use it. */
export function maskApiKey(key: string): string {
  const secret = key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : key;
  const prefix = key.startsWith(KEY_PREFIX) ? KEY_PREFIX : '';
  if (secret.length < 12) return `${prefix}${'*'.repeat(3)}`;
  return `${prefix}${secret.slice(0, 3)}...${secret.slice(-4)}`;
}

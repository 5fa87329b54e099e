import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Encrypts vault secrets at rest (AES-256-GCM; `iv.tag.ciphertext`, base64url)
 * under the gateway's vault key, and fingerprints values (an HMAC, so equal
 * values are recognisable without the value being recoverable from it).
 */
export interface SecretBox {
  seal(value: string): string;
  open(sealed: string): string;
  fingerprint(value: string): string;
}

export function secretBox(keyHex: string): SecretBox {
  const key = Buffer.from(keyHex, 'hex');
  if (key.length !== 32) throw new Error('the vault key must be 32 bytes (64 hex digits)');
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
    },
    open(sealed) {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !body) throw new Error('not a sealed vault secret');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
    fingerprint(value) {
      return `hmac-sha256:${createHmac('sha256', key).update(value).digest('hex').slice(0, 16)}`;
    },
  };
}

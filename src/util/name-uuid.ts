import { createHash } from 'node:crypto';

/**
 * A UUID derived from names (RFC 9562's version 5 layout over SHA-1): the same
 * names always give the same id, so an id the gateway shows for something it
 * keeps no row of (a workspace's default guardrail, an implicit membership)
 * stays the same from one answer to the next.
 */
export function nameUuid(...names: string[]): string {
  const bytes = createHash('sha1').update(names.join('\0')).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

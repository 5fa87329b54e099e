/** The leading bytes of each image format the providers answer with. */
const SIGNATURES: readonly [string, (bytes: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['image/svg+xml', (b) => /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(b.subarray(0, 256).toString('utf8'))],
];

/**
 * The media type of base64 image bytes, read from their first bytes rather
 * than trusted to a field the provider may leave out; undefined when they
 * are no format known here (the reference leaves media_type out then).
 */
export function mediaTypeOf(b64: string): string | undefined {
  const head = Buffer.from(b64.slice(0, 344), 'base64');
  return SIGNATURES.find(([, matches]) => matches(head))?.[0];
}

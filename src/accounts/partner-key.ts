/**
 * A partner-supplied key must be as hard to guess as one we generate would
 * be: long, and not a repetition of a few characters.
 */
export function partnerKeyProblem(key: string): string | undefined {
  if (key.length < 32) return 'must be at least 32 characters long';
  if (/\s/.test(key)) return 'must not contain whitespace';
  const counts = new Map<string, number>();
  for (const ch of key) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / key.length) * Math.log2(n / key.length);
  // 128 bits in all, and at least 3 bits a character (hex keys have 4).
  if (bitsPerChar < 3 || bitsPerChar * key.length < 128) return 'does not have sufficient entropy';
  return undefined;
}

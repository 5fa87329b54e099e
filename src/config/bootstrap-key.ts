/** The fewest characters an operator-chosen bootstrap management key may have. */
export const BOOTSTRAP_KEY_MIN_LENGTH = 32;
/** The fewest bits its characters' spread may estimate (entropyBits); a random 32-character hex string has about 115. */
export const BOOTSTRAP_KEY_MIN_BITS = 96;

/**
 * An estimate of a string's entropy from how often each of its characters occurs: its length times the Shannon
 * entropy of that distribution. A run of one character scores 0, a short word repeated scores little; a guessable
 * phrase of varied characters still scores high, so this is a floor against the worst keys, not a proof of a good one.
 */
export function entropyBits(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...counts.values()].reduce((sum, n) => sum + n, 0);
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / length) * Math.log2(n / length);
  return bitsPerChar * length;
}

/** What is wrong with a bootstrap key (GATEWAY_BOOTSTRAP_MANAGEMENT_KEY), or undefined when it will do; never the key itself. */
export function bootstrapKeyProblem(key: string): string | undefined {
  const length = [...key].length;
  const advice = 'use a random one, e.g. the output of `openssl rand -hex 32`';
  if (length < BOOTSTRAP_KEY_MIN_LENGTH) {
    return `GATEWAY_BOOTSTRAP_MANAGEMENT_KEY must be at least ${BOOTSTRAP_KEY_MIN_LENGTH} characters long (it has ${length}): ${advice}`;
  }
  const bits = entropyBits(key);
  if (bits < BOOTSTRAP_KEY_MIN_BITS) {
    return `GATEWAY_BOOTSTRAP_MANAGEMENT_KEY has too little entropy: about ${Math.floor(bits)} bits by the spread of its characters, fewer than ${BOOTSTRAP_KEY_MIN_BITS}: ${advice}`;
  }
  return undefined;
}

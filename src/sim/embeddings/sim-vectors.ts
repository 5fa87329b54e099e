import { words } from '../../providers/local/bm25-relevance.js';
import { splitTokens } from '../tokens.js';

/** The length of a simulated vector when the request names none. */
export const SIM_DIMENSIONS = 16;

/** FNV-1a, 32 bits: a stable hash of a word. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The simulator's deterministic embedding: each word (or token id) adds ±1
 * to a position its hash picks, and the vector is scaled to length 1 and
 * rounded to float32, so texts sharing words point the same way and an
 * answer can be checked exactly. A text without words is the first axis.
 */
export function simVector(item: string | readonly number[], dimensions = SIM_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const pieces = typeof item === 'string' ? words(item) : item.map(String);
  for (const piece of pieces) {
    const hash = fnv1a(piece);
    vector[hash % dimensions]! += hash & 0x8000_0000 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector.map((_, i) => (i === 0 ? 1 : 0)) : vector.map((x) => Math.fround(x / norm));
}

/** The tokens the simulator counts for an input item (its own tokenizer for text, the ids as sent). */
export const simTokens = (item: string | readonly number[]): number =>
  typeof item === 'string' ? Math.max(1, splitTokens(item).length) : item.length;

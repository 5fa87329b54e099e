import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodingPieces, LONGEST_ENCODED_PIECE } from './encoding-pieces.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** The longest run, in UTF-8 bytes, of spaces, of non-spaces or of `\r\n/` in a text. */
function longestRun(text: string): number {
  const runs = [...(text.match(/\s+|\S+/gu) ?? []), ...(text.match(/[\r\n/]+/g) ?? [])];
  return Math.max(0, ...runs.map(bytes));
}

describe('encodingPieces', () => {
  it('leaves text without a long run whole', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(500);
    expect(encodingPieces(prose)).toEqual([prose]);
    expect(encodingPieces('')).toEqual(['']);
  });

  it('cuts a long word, a long run of spaces, and a long run of newlines and slashes, into pieces of at most the bound', () => {
    for (const text of ['a'.repeat(150_000), ' '.repeat(10_000), `!${'\n/'.repeat(5_000)}`, 'é'.repeat(3_000), '😀'.repeat(2_000)]) {
      const pieces = encodingPieces(text);
      expect(pieces.join('')).toBe(text);
      expect(pieces.length).toBeGreaterThan(1);
      for (const piece of pieces) expect(longestRun(piece)).toBeLessThanOrEqual(LONGEST_ENCODED_PIECE);
      // No surrogate pair is split: no piece holds a lone surrogate.
      for (const piece of pieces) expect(piece).not.toMatch(/[\uD800-\uDFFF]/u);
    }
  });

  it('for any text: the pieces make the text, and no run in a piece passes the bound', () => {
    const unit = fc.constantFrom('a', 'Z', ' ', '\n', '\r', '/', '!', '7', 'é', '中', '😀', '\t', '\u3000');
    const text = fc
      .array(fc.tuple(unit, fc.integer({ min: 1, max: 700 })), { maxLength: 12 })
      .map((runs) => runs.map(([c, n]) => c.repeat(n)).join(''));
    fc.assert(
      fc.property(text, (t) => {
        const pieces = encodingPieces(t);
        expect(pieces.join('')).toBe(t);
        for (const piece of pieces) expect(longestRun(piece)).toBeLessThanOrEqual(LONGEST_ENCODED_PIECE);
        if (longestRun(t) <= LONGEST_ENCODED_PIECE) expect(pieces).toEqual([t]);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { LONGEST_ENCODED_PIECE } from './encoding-pieces.js';
import { boundedTokenCounter, loadTokenCounter } from './token-counter.js';

describe('loadTokenCounter', () => {
  it('counts BPE tokens, not characters', async () => {
    const tokens = await loadTokenCounter();
    expect(tokens.count('Hello world')).toBe(2);
    expect(tokens.count('')).toBe(0);
    expect(tokens.count('internationalization '.repeat(10))).toBeLessThan('internationalization '.repeat(10).length / 4);
  });

  it('cuts text at a token boundary from either end', async () => {
    const tokens = await loadTokenCounter();
    const text = 'one two three four five six';
    expect(tokens.head(text, 2)).toBe('one two');
    expect(tokens.tail(text, 2)).toBe(' five six');
    expect(tokens.head(text, 0)).toBe('');
    expect(tokens.tail(text, 0)).toBe('');
    expect(tokens.head(text, 100)).toBe(text);
  });

  it('counts a special token in the text as text, never refusing it', async () => {
    const tokens = await loadTokenCounter();
    expect(tokens.count('a <|endoftext|> b')).toBeGreaterThan(3);
    expect(tokens.head('<|endoftext|>', 100)).toBe('<|endoftext|>');
  });

  it('counts a 150 KB word close to the whole-word count of a shorter one, scaled', async () => {
    const tokens = await loadTokenCounter();
    const perByte = tokens.count('x'.repeat(LONGEST_ENCODED_PIECE)) / LONGEST_ENCODED_PIECE;
    const long = tokens.count('x'.repeat(150_000));
    expect(long).toBeGreaterThanOrEqual(Math.floor(perByte * 150_000));
    expect(long).toBeLessThanOrEqual(Math.ceil(perByte * 150_000) + 150_000 / LONGEST_ENCODED_PIECE);
    expect(tokens.head('x'.repeat(150_000), 10)).toBe(tokens.head('x'.repeat(LONGEST_ENCODED_PIECE), 10));
  });

  it('is loaded once', async () => {
    expect(await loadTokenCounter()).toBe(await loadTokenCounter());
  });
});

describe('boundedTokenCounter', () => {
  /** An encoding of one token per character that records the longest text it was given. */
  function recording() {
    let longest = 0;
    return {
      encoding: {
        encode: (text: string) => {
          longest = Math.max(longest, Buffer.byteLength(text));
          return [...text].map((c) => c.codePointAt(0)!);
        },
        decode: (tokens: number[]) => String.fromCodePoint(...tokens),
      },
      longest: () => longest,
    };
  }

  it('never gives the encoding a run longer than the bound, and counts and cuts across the pieces', () => {
    const { encoding, longest } = recording();
    const counter = boundedTokenCounter(encoding);
    const word = 'w'.repeat(150_000);
    expect(counter.count(`hi ${word} there`)).toBe(150_009);
    // The first piece is `hi ` and the word's first LONGEST_ENCODED_PIECE bytes.
    expect(longest()).toBe(LONGEST_ENCODED_PIECE + 3);
    expect(counter.head(`${word}!`, 3)).toBe('www');
    expect(counter.tail(`${word}!`, 2)).toBe('w!');
  });

  it('gives text without a long run to the encoding whole', () => {
    const { encoding, longest } = recording();
    const prose = 'a sentence of short words. '.repeat(1_000);
    expect(boundedTokenCounter(encoding).count(prose)).toBe(prose.length);
    expect(longest()).toBe(prose.length);
  });
});

import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from './token-counter.js';

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

  it('is loaded once', async () => {
    expect(await loadTokenCounter()).toBe(await loadTokenCounter());
  });
});

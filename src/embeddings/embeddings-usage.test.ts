import { describe, expect, it } from 'vitest';
import { countInputTokens, embeddingsUsage, inputTokenBound } from './embeddings-usage.js';

const texts = { kind: 'text' as const, texts: ['hello world', 'the quick brown fox'] };
const tokens = { kind: 'tokens' as const, tokens: [[1, 2, 3], [4]] };

describe('embeddingsUsage', () => {
  it('takes the tokens the provider reported when they fit the input', async () => {
    expect(await embeddingsUsage({ prompt_tokens: 7 }, texts)).toEqual({ tokens: 7, estimated: false });
    expect(await embeddingsUsage({ prompt_tokens: 4 }, tokens)).toEqual({ tokens: 4, estimated: false });
  });

  it('counts the tokens itself when the provider reported none (Gemini)', async () => {
    expect(await embeddingsUsage({}, texts)).toEqual({ tokens: await countInputTokens(texts), estimated: true });
    expect(await countInputTokens(texts)).toBe(6);
  });

  it.each([
    ['zero', 0],
    ['more than the text could hold', 1_000_000],
    ['fractional', 2.5],
    ['negative', -3],
  ])('counts itself a report that is %s', async (_, reported) => {
    expect(await embeddingsUsage({ prompt_tokens: reported }, texts)).toEqual({ tokens: 6, estimated: true });
  });

  it('bounds token arrays by the tokens sent, texts by what their bytes could hold', async () => {
    expect(inputTokenBound(tokens)).toBe(4);
    expect(await embeddingsUsage({ prompt_tokens: 5 }, tokens)).toEqual({ tokens: 4, estimated: true });
    expect(inputTokenBound(texts)).toBe(3 * 30 + 16 * 2);
  });
});

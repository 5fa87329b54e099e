import { describe, expect, it } from 'vitest';
import { characters, checkSpeechUsage, countedSpeechUsage, maxSpeechTokens } from './speech-usage.js';

const request = { input: 'Hello there, world.' };

describe('characters', () => {
  it('counts code points, as the providers bill them', () => {
    expect(characters({ input: 'héllo 👋' })).toBe(7);
  });
});

describe('maxSpeechTokens', () => {
  it("bounds the input by the text's token capacity and the output by the longest audio it makes, longer when slower", () => {
    const twenty = { input: 'x'.repeat(20) };
    const normal = maxSpeechTokens(twenty);
    expect(normal.input).toBeGreaterThanOrEqual(20);
    expect(maxSpeechTokens({ ...twenty, speed: 0.25 }).output).toBe(4 * normal.output);
    expect(maxSpeechTokens({ input: 'a', speed: 4 }).output).toBeGreaterThan(0);
  });
});

describe('checkSpeechUsage', () => {
  it('bills the reported tokens when they fit', () => {
    expect(checkSpeechUsage({ input_tokens: 5, output_tokens: 40, total_tokens: 45 }, request)).toEqual({
      usage: { prompt_tokens: 5, completion_tokens: 40, total_tokens: 45 },
      estimated: false,
    });
  });

  it.each([
    ['no usage', undefined],
    ['a negative figure', { input_tokens: -1, output_tokens: 40 }],
    ['a fraction', { input_tokens: 5, output_tokens: 1.5 }],
    ['more output than the audio can hold', { input_tokens: 5, output_tokens: 10_000_000 }],
    ['more input than the text can hold', { input_tokens: 10_000_000, output_tokens: 40 }],
  ])('replaces %s by the bound, marked estimated', (_, reported) => {
    const checked = checkSpeechUsage(reported, request);
    const max = maxSpeechTokens(request);
    expect(checked.estimated).toBe(true);
    expect(checked.usage.prompt_tokens === max.input || checked.usage.completion_tokens === max.output).toBe(true);
    expect(checked.usage.total_tokens).toBe(checked.usage.prompt_tokens + checked.usage.completion_tokens);
  });
});

describe('countedSpeechUsage', () => {
  it("bills the text's tokens as counted and no audio tokens", () => {
    expect(countedSpeechUsage(request, { count: () => 5 })).toEqual({ prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 });
  });

  it('never bills more than the reservation held for the text, whatever the counter says', () => {
    const usage = countedSpeechUsage(request, { count: () => 10_000_000 });
    expect(usage.prompt_tokens).toBe(maxSpeechTokens(request).input);
    expect(usage.total_tokens).toBe(usage.prompt_tokens);
  });
});

import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiResponse } from './gemini-api-types.js';

const recordedUsage = (name: string) => (readFixtureJson(name) as GeminiResponse).usageMetadata ?? {};

describe('convertGeminiUsage', () => {
  it('counts thoughts as completion and reasoning tokens (google-text)', () => {
    expect(convertGeminiUsage(recordedUsage('gemini/google-text.json'))).toStrictEqual({
      prompt_tokens: 9,
      completion_tokens: 28 + 244,
      total_tokens: 281,
      completion_tokens_details: { reasoning_tokens: 244 },
    });
  });

  it('has no completion tokens and no details for a blocked prompt (issue-19758-prompt-block)', () => {
    expect(convertGeminiUsage(recordedUsage('gemini/issue-19758-prompt-block.json'))).toStrictEqual({
      prompt_tokens: 9,
      completion_tokens: 0,
      total_tokens: 9,
    });
  });

  it('reads cached tokens, and counts built-in tool results as prompt tokens', () => {
    expect(
      convertGeminiUsage({
        promptTokenCount: 1200,
        cachedContentTokenCount: 1024,
        toolUsePromptTokenCount: 30,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 0,
        totalTokenCount: 1270,
      }),
    ).toStrictEqual({
      prompt_tokens: 1230,
      completion_tokens: 40,
      total_tokens: 1270,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('adds up a total Gemini left out', () => {
    expect(convertGeminiUsage({ promptTokenCount: 5, candidatesTokenCount: 7 }).total_tokens).toBe(12);
  });

  it('makes a sum none when a part of it is no count, and passes each figure on as sent, to be checked', () => {
    const usage = convertGeminiUsage({
      promptTokenCount: 5,
      toolUsePromptTokenCount: -9,
      candidatesTokenCount: 7,
      thoughtsTokenCount: 1.5,
      cachedContentTokenCount: -1,
    });
    expect(usage.prompt_tokens).toBeNaN();
    expect(usage.completion_tokens).toBeNaN();
    expect(usage.prompt_tokens_details).toStrictEqual({ cached_tokens: -1 });
    expect(usage.completion_tokens_details).toStrictEqual({ reasoning_tokens: 1.5 });
  });
});

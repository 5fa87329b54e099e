import { describe, expect, it } from 'vitest';
import { compileModelPatterns } from './match-model-pattern.js';

describe('compileModelPatterns', () => {
  const patterns = compileModelPatterns(['anthropic/*', 'openai/gpt-4o', 'Google/Gemini-2.5-*']);
  it.each([
    ['anthropic/claude-sonnet-4', 'anthropic/*'],
    ['openai/gpt-4o', 'openai/gpt-4o'],
    ['OpenAI/GPT-4o', 'openai/gpt-4o'],
    ['openai/gpt-4o-mini', undefined],
    ['google/gemini-2.5-pro', 'Google/Gemini-2.5-*'],
    ['google/gemini-2.0-flash', undefined],
    ['anthropicx/model', undefined],
  ])('%s → %s', (id, expected) => {
    expect(patterns.match(id)).toBe(expected);
  });

  it('matches everything with a lone wildcard and nothing with no pattern', () => {
    expect(compileModelPatterns(['*']).match('x/y')).toBe('*');
    expect(compileModelPatterns([]).match('x/y')).toBeUndefined();
  });
});

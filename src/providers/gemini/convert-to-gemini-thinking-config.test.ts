import { describe, expect, it } from 'vitest';
import type { ChatRequest, ReasoningEffort } from '../../protocol/chat.js';
import { convertToGeminiThinkingConfig } from './convert-to-gemini-thinking-config.js';

const messages: ChatRequest['messages'] = [{ role: 'user', content: 'Hi' }];
const withReasoning = (reasoning: ChatRequest['reasoning'], extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages,
  reasoning,
  ...extra,
});

describe('convertToGeminiThinkingConfig', () => {
  it('sends nothing when the request says nothing about reasoning', () => {
    expect(convertToGeminiThinkingConfig({ messages }, 'gemini-2.5-flash')).toBeUndefined();
    expect(convertToGeminiThinkingConfig(withReasoning({ exclude: true }), 'gemini-2.5-flash')).toBeUndefined();
  });

  it.each<[ReasoningEffort, string]>([
    ['none', 'minimal'],
    ['minimal', 'minimal'],
    ['low', 'low'],
    ['medium', 'medium'],
    ['high', 'high'],
    ['xhigh', 'high'],
    ['max', 'high'],
  ])('maps effort %s to thinkingLevel %s for Gemini 3', (effort, level) => {
    expect(convertToGeminiThinkingConfig(withReasoning({ effort }), 'gemini-3-flash-preview')?.thinkingLevel).toBe(level);
  });

  it.each<[ReasoningEffort, number]>([
    ['none', 0],
    ['minimal', 512],
    ['low', 1024],
    ['medium', 8192],
    ['high', 24_576],
    ['xhigh', 24_576],
    ['max', 24_576],
  ])('maps effort %s to thinkingBudget %i for older models', (effort, budget) => {
    const config = convertToGeminiThinkingConfig(withReasoning({ effort }), 'gemini-2.5-flash');
    expect(config?.thinkingBudget).toBe(budget);
    expect(config).not.toHaveProperty('thinkingLevel');
  });

  it('asks for the thoughts back unless thinking is off or they are excluded', () => {
    expect(convertToGeminiThinkingConfig(withReasoning({ effort: 'high' }), 'gemini-3-pro-preview')).toStrictEqual({
      thinkingLevel: 'high',
      includeThoughts: true,
    });
    expect(convertToGeminiThinkingConfig(withReasoning({ effort: 'high', exclude: true }), 'gemini-3-pro-preview')).toStrictEqual({
      thinkingLevel: 'high',
    });
    expect(convertToGeminiThinkingConfig(withReasoning({ effort: 'none' }), 'gemini-2.5-flash')).toStrictEqual({ thinkingBudget: 0 });
  });

  it('reads the top-level reasoning_effort, and enabled: false as none', () => {
    expect(convertToGeminiThinkingConfig({ messages, reasoning_effort: 'low' }, 'gemini-2.5-pro')).toStrictEqual({
      thinkingBudget: 1024,
      includeThoughts: true,
    });
    expect(convertToGeminiThinkingConfig(withReasoning({ enabled: false }), 'gemini-3-flash-preview')).toStrictEqual({
      thinkingLevel: 'minimal',
    });
  });

  it('sends an explicit token budget as it is, for every model, over an effort', () => {
    expect(convertToGeminiThinkingConfig(withReasoning({ max_tokens: 2000, effort: 'high' }), 'gemini-3-pro-preview')).toStrictEqual({
      thinkingBudget: 2000,
      includeThoughts: true,
    });
    // Switching thinking off wins over a budget.
    expect(convertToGeminiThinkingConfig(withReasoning({ max_tokens: 2000, enabled: false }), 'gemini-2.5-flash')).toStrictEqual({
      thinkingBudget: 0,
    });
  });

  it('only asks for the thoughts when reasoning is enabled without an effort or budget', () => {
    expect(convertToGeminiThinkingConfig(withReasoning({ enabled: true }), 'gemini-2.5-flash')).toStrictEqual({ includeThoughts: true });
    expect(convertToGeminiThinkingConfig(withReasoning({ summary: 'auto' }), 'gemini-2.5-flash')).toStrictEqual({ includeThoughts: true });
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import { convertToAnthropicThinking } from './convert-to-anthropic-thinking.js';

const messages: ChatRequest['messages'] = [{ role: 'user', content: 'Think.' }];
const budgetFor = (request: Omit<ChatRequest, 'messages'>, maxTokens: number) =>
  convertToAnthropicThinking({ messages, ...request }, maxTokens)?.budget_tokens;

describe('convertToAnthropicThinking', () => {
  it.each([
    ['minimal', 1_600],
    ['low', 3_200],
    ['medium', 8_000],
    ['high', 12_800],
    ['xhigh', 14_400],
    ['max', 15_200],
  ] as const)('gives effort %s its share of max_tokens (16000 → %i)', (effort, budget) => {
    expect(budgetFor({ reasoning: { effort } }, 16_000)).toBe(budget);
    expect(budgetFor({ reasoning_effort: effort }, 16_000)).toBe(budget);
  });

  it('thinks not at all for none, enabled: false, or no reasoning asked', () => {
    expect(budgetFor({ reasoning: { effort: 'none' } }, 16_000)).toBeUndefined();
    expect(budgetFor({ reasoning: { enabled: false, max_tokens: 4_000 } }, 16_000)).toBeUndefined();
    expect(budgetFor({}, 16_000)).toBeUndefined();
  });

  it('reads enabled: true alone as medium, and takes reasoning.max_tokens as the budget', () => {
    expect(budgetFor({ reasoning: { enabled: true } }, 10_000)).toBe(5_000);
    expect(budgetFor({ reasoning: { max_tokens: 3_000 } }, 10_000)).toBe(3_000);
  });

  it("keeps the budget within Anthropic's minimum and below max_tokens", () => {
    expect(budgetFor({ reasoning: { effort: 'minimal' } }, 4_096)).toBe(1_024);
    expect(budgetFor({ reasoning: { max_tokens: 50_000 } }, 8_000)).toBe(7_999);
    expect(budgetFor({ reasoning: { effort: 'max' } }, 1_000_000)).toBe(128_000);
  });

  it('does not think when max_tokens leaves no room for the minimum budget', () => {
    expect(budgetFor({ reasoning: { effort: 'high' } }, 1_024)).toBeUndefined();
    expect(budgetFor({ reasoning: { effort: 'high' } }, 1_025)).toBe(1_024);
  });
});

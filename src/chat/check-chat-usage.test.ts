import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../plugins/shared/token-counter.js';
import type { ChatCompletion } from '../protocol/chat.js';
import { answerTextOf, checkChatUsage, usageBounds } from './check-chat-usage.js';

const words: TokenCounter = { count: (text) => text.split(/\s+/).filter(Boolean).length, head: (text) => text, tail: (text) => text };
const request = { messages: [{ role: 'user' as const, content: 'say hello to the world' }] };
const completion = (content: string): Pick<ChatCompletion, 'choices'> => ({
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const endpoint = { contextLength: 8_192, maxCompletionTokens: 1_024, supportedParameters: ['max_tokens'] };
const sane = { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 };

describe('checkChatUsage', () => {
  it('bills sane figures as reported and never loads the tokenizer for them', async () => {
    const tokens = () => Promise.reject(new Error('the tokenizer was loaded'));
    expect(await checkChatUsage(sane, request, endpoint, answerTextOf(completion('Hello, world')), tokens)).toEqual({
      usage: sane,
      estimated: false,
    });
  });

  it('counts the request and the answer with the tokenizer when the upstream reported no usage', async () => {
    const checked = await checkChatUsage(undefined, request, endpoint, answerTextOf(completion('Hello there, world')), async () => words);
    expect(checked).toEqual({ usage: { prompt_tokens: 5 + 4, completion_tokens: 3, total_tokens: 12 }, estimated: true });
  });

  it('replaces a completion far beyond what the answer could hold (a 15-token answer billed as 5000)', async () => {
    const checked = await checkChatUsage(
      { ...sane, completion_tokens: 5_000 },
      request,
      endpoint,
      answerTextOf(completion('Hi')),
      async () => words,
    );
    expect(checked).toEqual({ usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 }, estimated: true });
  });
});

describe('usageBounds', () => {
  it('takes the endpoint’s window and longest completion, and what the text could hold', () => {
    const answer = answerTextOf(completion('abc'));
    expect(usageBounds(endpoint, answer)).toEqual({
      maxPromptTokens: 8_192,
      maxCompletionTokens: 1_024,
      answerCapacity: 3 * 3 + 16,
      mayHideTokens: false,
    });
  });

  it('assumes the largest window, and hidden reasoning, for an endpoint that says neither', () => {
    expect(usageBounds({}, answerTextOf(completion('')))).toMatchObject({
      maxPromptTokens: 10_000_000,
      maxCompletionTokens: 10_000_000,
      mayHideTokens: true,
    });
    expect(usageBounds({ supportedParameters: ['reasoning'] }, answerTextOf(completion(''))).mayHideTokens).toBe(true);
  });

  it('counts each tool call and further choice as a piece of the answer', () => {
    const answer = answerTextOf({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
          },
          finish_reason: 'tool_calls',
        },
        { index: 1, message: { role: 'assistant', content: 'ok', reasoning: 'hmm' }, finish_reason: 'stop' },
      ],
    });
    expect([answer.chars, answer.pieces]).toEqual([1 + 7 + 2 + 3, 3]);
  });
});

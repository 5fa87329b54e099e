import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { requestFeatures } from './request-features.js';

const say = (content: string): ChatMessage[] => [{ role: 'user', content }];

describe('requestFeatures', () => {
  it('reads tools, images, reasoning and the prompt size', () => {
    const features = requestFeatures({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: 'https://x/a.png' } },
          ],
        },
      ],
      tools: [{ type: 'function', function: { name: 'f' } }],
      reasoning: { effort: 'high' },
    });
    expect(features).toMatchObject({ tools: true, images: true, reasoning: true, promptTokens: 6, toolErrors: 0 });
    expect(requestFeatures({ messages: say('hi') })).toMatchObject({ tools: false, images: false, reasoning: false, promptTokens: 1 });
  });

  it.each([
    [{ effort: 'none' as const }, false],
    [{ enabled: true }, true],
    [{ max_tokens: 2000 }, true],
    [{ enabled: false }, false],
  ])('reasoning %j is asked: %s', (reasoning, asked) => {
    expect(requestFeatures({ messages: say('hi'), reasoning }).reasoning).toBe(asked);
  });

  it('counts tool results reporting an error since the latest user message', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'fix the build' },
      { role: 'tool', tool_call_id: '1', content: 'Error: old failure' },
      { role: 'user', content: 'try again' },
      { role: 'tool', tool_call_id: '2', content: 'Traceback (most recent call last): ...' },
      { role: 'assistant', content: 'retrying' },
      { role: 'tool', tool_call_id: '3', content: [{ type: 'text', text: 'tests failed: 2' }] },
      { role: 'tool', tool_call_id: '4', content: 'ok' },
    ];
    expect(requestFeatures({ messages }).toolErrors).toBe(2);
  });

  it('classifies the task only when asked', () => {
    expect(requestFeatures({ messages: say('Translate "cat" into German') }).task()).toBe('translation');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { loadTokenCounter, type TokenCounter } from '../shared/token-counter.js';
import { messageTokens } from './message-tokens.js';
import { middleOut } from './middle-out.js';

let tokens: TokenCounter;
beforeAll(async () => {
  tokens = await loadTokenCounter();
});

const words = (label: string, count: number) => Array.from({ length: count }, (_, i) => `${label}${i}`).join(' ');
const total = (messages: ChatMessage[]) => messages.reduce((sum, m) => sum + messageTokens(m, tokens), 0);

/** system, then ten user/assistant turns of about 100 tokens each. */
function conversation(): ChatMessage[] {
  const turns: ChatMessage[] = Array.from({ length: 10 }, (_, i) =>
    i % 2 === 0 ? { role: 'user', content: words(`u${i}-`, 50) } : { role: 'assistant', content: words(`a${i}-`, 50) },
  );
  return [{ role: 'system', content: 'You are terse.' }, ...turns];
}

describe('middleOut', () => {
  it('leaves a prompt that fits alone', () => {
    const messages = conversation();
    const result = middleOut(messages, total(messages), tokens);
    expect(result).toMatchObject({ fits: true, removed: [], truncated: [] });
    if (result.fits) expect(result.messages).toEqual(messages);
  });

  it('removes messages from the middle outwards, keeping the system, first and last messages', () => {
    const messages = conversation();
    const each = messageTokens(messages[1] as ChatMessage, tokens);
    const result = middleOut(messages, total(messages) - 2 * each, tokens);
    expect(result.fits).toBe(true);
    if (!result.fits) return;
    // Ten turns at 1..10: the middle of the eight removable ones (2..9) is between 5 and 6.
    expect(result.removed).toEqual([5, 6]);
    expect(result.messages.map((m) => messages.indexOf(m))).toEqual([0, 1, 2, 3, 4, 7, 8, 9, 10]);
    expect(result.tokensAfter).toBe(total(result.messages));
    expect(result.tokensAfter).toBeLessThanOrEqual(total(messages) - 2 * each);
  });

  it('never separates tool results from the assistant turn that called them', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: words('first', 40) },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: words('result', 200) },
      { role: 'assistant', content: words('middle', 40) },
      { role: 'user', content: words('last', 40) },
    ];
    const result = middleOut(messages, total(messages) - 100, tokens);
    expect(result.fits).toBe(true);
    if (!result.fits) return;
    expect(result.removed).toEqual([1, 2]);
    expect(result.messages.some((m) => m.role === 'tool')).toBe(false);
  });

  it('cuts the middle of the kept messages when removing is not enough, and says how much', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: `${words('head', 300)} ${words('tail', 300)}` },
    ];
    const result = middleOut(messages, 200, tokens);
    expect(result.fits).toBe(true);
    if (!result.fits) return;
    expect(result.removed).toEqual([]);
    expect(result.truncated).toHaveLength(1);
    expect(result.truncated[0]?.index).toBe(1);
    const text = result.messages[1]?.content as string;
    expect(text.startsWith('head0 head1')).toBe(true);
    expect(text.endsWith('tail298 tail299')).toBe(true);
    expect(text).toMatch(/\[… \d+ tokens removed by context-compression …\]/);
    expect(result.messages[0]).toEqual(messages[0]);
    expect(result.tokensAfter).toBeLessThanOrEqual(200);
    expect(total(result.messages)).toBe(result.tokensAfter);
  });

  it('reports a prompt whose instructions alone exceed the budget', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: words('rule', 500) },
      { role: 'user', content: 'hi' },
    ];
    const result = middleOut(messages, 100, tokens);
    expect(result.fits).toBe(false);
    expect(result.tokensAfter).toBeGreaterThan(100);
  });

  it('keeps a message of images as it is', () => {
    const image: ChatMessage = { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] };
    const messages: ChatMessage[] = [image, { role: 'assistant', content: words('x', 400) }, { role: 'user', content: 'last' }];
    const result = middleOut(messages, 100, tokens);
    expect(result.fits).toBe(true);
    if (result.fits) expect(result.messages[0]).toBe(image);
  });
});

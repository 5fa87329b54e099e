import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { conversationKey } from './conversation-key.js';

const first: ChatMessage[] = [
  { role: 'system', content: 'You are a patient tutor.' },
  { role: 'user', content: 'Explain recursion.' },
];

describe('conversationKey', () => {
  it('is the same for every turn of a conversation', () => {
    const later: ChatMessage[] = [...first, { role: 'assistant', content: 'Recursion is…' }, { role: 'user', content: 'An example?' }];
    expect(conversationKey({ messages: later })).toBe(conversationKey({ messages: first }));
    expect(conversationKey({ messages: first })).toMatch(/^opening:[\w-]{43}$/);
  });

  it('differs when the opening differs', () => {
    expect(conversationKey({ messages: [first[0]!, { role: 'user', content: 'Explain loops.' }] })).not.toBe(
      conversationKey({ messages: first }),
    );
    expect(conversationKey({ messages: [first[1]!] })).not.toBe(conversationKey({ messages: first }));
  });

  it('is the prompt_cache_key when the request gives one', () => {
    expect(conversationKey({ messages: first, prompt_cache_key: 'thread-42' })).toBe('key:thread-42');
  });
});

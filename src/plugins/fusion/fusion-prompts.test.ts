import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { analystMessages, panelMessages, synthesisMessages } from './fusion-prompts.js';

const conversation: ChatMessage[] = [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello' },
  { role: 'user', content: [{ type: 'text', text: 'How far is the Moon?' }] },
];

describe('fusion prompts', () => {
  it('gives each panelist the conversation under the panel instructions', () => {
    const messages = panelMessages(conversation);
    expect(messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('expert of a panel') });
    expect(messages.slice(1)).toEqual(conversation);
  });

  it('gives the analyst the last question and each answer with its model', () => {
    const [system, user] = analystMessages(conversation, [
      { model: 'a/x', content: '384,400 km' },
      { model: 'b/y', content: 'about 384,000 km' },
    ]);
    expect(system).toMatchObject({ role: 'system', content: expect.stringContaining('"consensus"') });
    expect(user).toEqual({
      role: 'user',
      content: 'Question: How far is the Moon?\n\nPanel answers:\n\n### Expert 1 (a/x)\n384,400 km\n\n### Expert 2 (b/y)\nabout 384,000 km',
    });
  });

  it('puts the analysis before the conversation for the synthesis', () => {
    const messages = synthesisMessages(conversation, '{"consensus":["384,400 km"]}');
    expect(messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringMatching(/final answer[\s\S]*\{"consensus":\["384,400 km"\]\}$/),
    });
    expect(messages.slice(1)).toEqual(conversation);
  });
});

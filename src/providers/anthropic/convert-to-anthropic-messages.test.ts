import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

describe('convertToAnthropicMessages', () => {
  it('merges consecutive turns of more blocks than a spread into push could hold (200,000)', () => {
    const parts = Array.from({ length: 200_000 }, () => ({ type: 'text' as const, text: 'x' }));
    const converted = convertToAnthropicMessages([
      { role: 'system', content: parts },
      { role: 'user', content: 'first' },
      { role: 'user', content: parts },
    ]);
    expect(converted.system).toHaveLength(200_000);
    expect(converted.messages).toHaveLength(1);
    expect(converted.messages[0]!.content).toHaveLength(200_001);
  });

  it('moves system and developer messages, wherever they stand, into system blocks', () => {
    const converted = convertToAnthropicMessages([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'developer', content: [{ type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ]);
    expect(converted).toEqual({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('turns assistant tool calls into tool_use blocks and tool results into a user turn of tool_result blocks', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning: 'The user wants two cities.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: 'Rain', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'And tomorrow?' },
    ];
    expect(convertToAnthropicMessages(messages).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'Rain', cache_control: { type: 'ephemeral' } }] },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
  });

  it('sends a conversation of instructions only as the user turn, since Anthropic refuses empty messages', () => {
    expect(
      convertToAnthropicMessages([
        { role: 'system', content: 'Say hi.' },
        { role: 'developer', content: 'In French.' },
      ]),
    ).toStrictEqual({
      system: [],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Say hi.' },
            { type: 'text', text: 'In French.' },
          ],
        },
      ],
    });
  });

  it('merges consecutive turns of one role, as Anthropic requires alternation', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'One' },
      { role: 'user', content: [{ type: 'text', text: 'Two' }] },
      { role: 'assistant', content: 'A' },
      { role: 'assistant', content: [{ type: 'text', text: 'B' }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
      },
    ]);
  });

  it('drops empty text (refused by Anthropic), and a turn left with nothing', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: '', tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'assistant', content: null },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
    ]);
  });

  it('sends arguments that are not a JSON object as an empty input', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'assistant', tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{"city": "Par' } }] },
      { role: 'assistant', tool_calls: [{ id: 'u', type: 'function', function: { name: 'f', arguments: '[1]' } }] },
    ]);
    expect(messages[0]?.content.map((block) => (block.type === 'tool_use' ? block.input : undefined))).toEqual([{}, {}]);
  });
});

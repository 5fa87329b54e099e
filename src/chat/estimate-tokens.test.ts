import { describe, expect, it } from 'vitest';
import { loadTokenCounter, type TokenCounter } from '../plugins/shared/token-counter.js';
import { AnswerText, countPromptTokens } from './estimate-tokens.js';

/** One token a character: what each part adds is plain to read. */
const chars: TokenCounter = { count: (text) => text.length, head: (text) => text, tail: (text) => text };

describe('countPromptTokens', () => {
  it('counts every message with its framing, tool calls, tool definitions and a JSON schema to answer in', () => {
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    const schema = { type: 'json_schema' as const, json_schema: { name: 's' } };
    const messages = [
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'abcd' },
          { type: 'image_url' as const, image_url: { url: 'https://x/y.png' } },
        ],
      },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{}' } }],
      },
    ];
    expect(countPromptTokens({ messages }, chars)).toBe(4 + 4 + (1 + 2) + 4);
    expect(countPromptTokens({ messages, tools, response_format: schema }, chars)).toBe(
      15 + JSON.stringify(tools).length + JSON.stringify(schema.json_schema).length,
    );
  });

  it('counts with the tokenizer, not characters', async () => {
    const tokens = await loadTokenCounter();
    expect(countPromptTokens({ messages: [{ role: 'user', content: 'hello world' }] }, tokens)).toBe(2 + 4);
  });
});

describe('AnswerText', () => {
  it('keeps its size and counts its text only when asked', () => {
    const answer = new AnswerText();
    answer.add('Hello');
    answer.add(null);
    answer.add(' world');
    answer.addPiece();
    expect([answer.chars, answer.pieces]).toEqual([11, 2]);
    expect(answer.count(chars)).toBe(11);
    expect(new AnswerText().count(chars)).toBe(0);
  });

  it('keeps four mebi-characters of text, and scales the count of what it kept past them', () => {
    const answer = new AnswerText();
    const piece = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 8; i++) answer.add(piece);
    expect(answer.chars).toBe(8 * piece.length);
    let counted = '';
    expect(answer.count({ ...chars, count: (text) => ((counted = text), text.length) })).toBe(8 * piece.length);
    expect(counted.length).toBe(4 * piece.length);
  });
});

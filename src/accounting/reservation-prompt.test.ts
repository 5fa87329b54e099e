import { describe, expect, it } from 'vitest';
import { NON_TEXT_PART_TOKENS, promptTokens, TOOLS_SYSTEM_TOKENS } from './reservation-prompt.js';

/** One token a character: the tests see what is counted. */
const chars = (text: string) => text.length;

describe('promptTokens', () => {
  it('counts the text of every message with the framing of each', () => {
    const tokens = promptTokens(
      {
        messages: [
          { role: 'system', content: 'abc' },
          { role: 'user', content: [{ type: 'text', text: 'de' }] },
        ],
      },
      chars,
    );
    // "abc\nde" is 6, two messages of 4, and 3 for the reply.
    expect(tokens).toBe(6 + 8 + 3);
  });

  it("counts tool calls, tool definitions, a response schema and a prediction, a fixed amount per image, audio or file part, and the tools' system prompt", () => {
    const request = {
      messages: [
        { role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } }] },
        {
          role: 'assistant' as const,
          content: null,
          tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{}' } }],
        },
      ],
      tools: [{ type: 'function' as const, function: { name: 'f' } }],
      response_format: { type: 'json_schema' as const, json_schema: { name: 's' } },
      prediction: { type: 'content' as const, content: 'xyz' },
    };
    const text = ['f', '{}', JSON.stringify(request.tools), JSON.stringify(request.response_format.json_schema), 'xyz'].join('\n');
    expect(promptTokens(request, chars)).toBe(text.length + 8 + 3 + NON_TEXT_PART_TOKENS + TOOLS_SYSTEM_TOKENS);
    // The system prompt once, for tools or a schema alike.
    const { tools: _, ...schemaOnly } = request;
    const schemaText = ['f', '{}', JSON.stringify(request.response_format.json_schema), 'xyz'].join('\n');
    expect(promptTokens(schemaOnly, chars)).toBe(schemaText.length + 8 + 3 + NON_TEXT_PART_TOKENS + TOOLS_SYSTEM_TOKENS);
  });
});

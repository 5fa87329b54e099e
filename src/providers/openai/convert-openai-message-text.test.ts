import { describe, expect, it } from 'vitest';
import { convertOpenAIMessageText } from './convert-openai-message-text.js';

describe('convertOpenAIMessageText', () => {
  it('keeps string content', () => {
    expect(convertOpenAIMessageText({ content: 'hi' })).toEqual({ content: 'hi' });
    expect(convertOpenAIMessageText({ content: '' })).toEqual({ content: '' });
  });

  it('turns null content and null reasoning into absent', () => {
    expect(convertOpenAIMessageText({ content: null, reasoning_content: null })).toEqual({});
  });

  it("reads DeepSeek's reasoning_content and Groq's reasoning", () => {
    expect(convertOpenAIMessageText({ content: null, reasoning_content: 'The' })).toEqual({ reasoning: 'The' });
    expect(convertOpenAIMessageText({ content: 'x', reasoning: 'why' })).toEqual({ content: 'x', reasoning: 'why' });
  });

  it("splits Mistral's content parts into reasoning (thinking) and text", () => {
    expect(
      convertOpenAIMessageText({
        content: [
          {
            type: 'thinking',
            thinking: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
          { type: 'text', text: 'c' },
          { type: 'text', text: 'd' },
        ],
      }),
    ).toEqual({ content: 'cd', reasoning: 'ab' });
  });

  it('leaves out content when the parts hold only thinking', () => {
    expect(convertOpenAIMessageText({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'a' }] }] })).toEqual({
      reasoning: 'a',
    });
  });
});

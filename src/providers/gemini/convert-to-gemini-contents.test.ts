import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';

const convert = (messages: ChatMessage[], signFunctionCalls = false) => convertToGeminiContents(messages, { signFunctionCalls });

const weatherCall = (id: string, city: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'get_weather', arguments: JSON.stringify({ city }) },
});

describe('convertToGeminiContents', () => {
  it('gathers system and developer messages, wherever they stand, into systemInstruction', () => {
    expect(
      convert([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } }] },
      ]),
    ).toStrictEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
  });

  it('sends a conversation of instructions only as the user turn, since Gemini refuses empty contents', () => {
    expect(
      convert([
        { role: 'system', content: 'Say hi.' },
        { role: 'developer', content: 'In French.' },
      ]),
    ).toStrictEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hi.' }, { text: 'In French.' }] }],
    });
  });

  it('has no systemInstruction without system messages', () => {
    expect(convert([{ role: 'user', content: 'Hi' }])).toStrictEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('sends assistant turns as "model", without their reasoning or refusal', () => {
    expect(
      convert([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!', reasoning: 'The user greets me.', refusal: null },
        { role: 'user', content: 'Bye' },
      ]).contents,
    ).toStrictEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
      { role: 'user', parts: [{ text: 'Bye' }] },
    ]);
  });

  it('converts images: data URLs inline, http(s) URLs as fileData with a guessed type', () => {
    expect(
      convert([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.webp', detail: 'high' } },
          ],
        },
      ]).contents,
    ).toStrictEqual([
      {
        role: 'user',
        parts: [
          { text: 'Compare these' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.webp' } },
        ],
      },
    ]);
  });

  it('converts audio and files', () => {
    expect(
      convert([
        {
          role: 'user',
          content: [
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
            { type: 'file', file: { filename: 'notes.txt', file_id: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } },
            { type: 'file', file: { filename: 'nothing.txt' } },
          ],
        },
      ]).contents[0]?.parts,
    ).toStrictEqual([
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
      { fileData: { mimeType: 'text/plain', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } },
    ]);
  });

  it('sends tool calls as functionCall parts and the results as functionResponse parts named after their call', () => {
    expect(
      convert([
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: 'Let me check.', tool_calls: [weatherCall('call_0', 'Paris'), weatherCall('call_1', 'Rome')] },
        { role: 'tool', tool_call_id: 'call_0', content: '{"temperature":21}' },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [
            { type: 'text', text: 'Sunny, ' },
            { type: 'text', text: '25 °C' },
          ],
        },
        { role: 'user', content: 'Thanks' },
      ]).contents,
    ).toStrictEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Let me check.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temperature: 21 } } },
          { functionResponse: { name: 'get_weather', response: { output: 'Sunny, 25 °C' } } },
        ],
      },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it('looks names up in the latest turn when synthesized ids repeat across turns', () => {
    const contents = convert([
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'first', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'one' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'second', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'two' },
    ]).contents;
    expect(contents.map((content) => content.parts[0]?.functionResponse?.name ?? content.parts[0]?.functionCall?.name)).toEqual([
      undefined,
      'first',
      'first',
      'second',
      'second',
    ]);
  });

  it('falls back to the call id for an unknown call, and to no arguments for arguments that are not a JSON object', () => {
    const contents = convert([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{"q": "unterminated' } }],
      },
      { role: 'tool', tool_call_id: 'call_x', content: '[1,2]' },
    ]).contents;
    expect(contents).toStrictEqual([
      { role: 'model', parts: [{ functionCall: { name: 'lookup', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'call_x', response: { output: '[1,2]' } } }] },
    ]);
  });

  it('signs the first function call of each turn with the skip sentinel when asked (Gemini 3)', () => {
    const contents = convert(
      [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: null, tool_calls: [weatherCall('call_0', 'Paris'), weatherCall('call_1', 'Rome')] },
      ],
      true,
    ).contents;
    expect(contents[1]?.parts).toStrictEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
    ]);
  });

  it('leaves out empty texts, and turns left with nothing', () => {
    expect(
      convert([
        { role: 'user', content: '' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'Hi' },
          ],
        },
        { role: 'assistant', content: '' },
        { role: 'system', content: '' },
      ]),
    ).toStrictEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });
});

import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { convertGeminiResponse } from './convert-gemini-response.js';
import type { GeminiResponse } from './gemini-api-types.js';

const CREATED = 1_770_000_000;
const convertRecording = (name: string) => convertGeminiResponse(readFixtureJson(name) as GeminiResponse, CREATED);

describe('convertGeminiResponse', () => {
  it('maps google-text: text without its thought signature, thoughts counted as reasoning tokens', () => {
    expect(convertRecording('gemini/google-text.json')).toStrictEqual({
      id: 'Un6LacrVMcjUxs0PmJfWoQc',
      object: 'chat.completion',
      created: CREATED,
      model: 'gemini-3-pro-preview',
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y." },
          finish_reason: 'stop',
          native_finish_reason: 'STOP',
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 272, total_tokens: 281, completion_tokens_details: { reasoning_tokens: 244 } },
    });
  });

  it('maps google-tool-call: a function call ending in STOP is tool_calls, with the synthesized id call_0', () => {
    const [choice] = convertRecording('gemini/google-tool-call.json').choices;
    expect(choice).toStrictEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }],
      },
      finish_reason: 'tool_calls',
      native_finish_reason: 'STOP',
    });
  });

  it('maps issue-19758-prompt-block: a blocked prompt without candidates is an empty content_filter choice', () => {
    const completion = convertRecording('gemini/issue-19758-prompt-block.json');
    expect(completion.choices).toStrictEqual([
      {
        index: 0,
        message: { role: 'assistant', content: '' },
        finish_reason: 'content_filter',
        native_finish_reason: 'PROHIBITED_CONTENT',
      },
    ]);
    expect(completion).toMatchObject({
      id: 'EXCPaojyHaDUjMcP656rqAk',
      model: 'gemini-3.7-flash',
      usage: { prompt_tokens: 9, completion_tokens: 0 },
    });
  });

  it('returns thought parts as reasoning, ids in call order, and parallel calls with and without arguments', () => {
    const completion = convertGeminiResponse(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: '**Planning**\n', thought: true },
                { text: 'Checking both.', thought: true },
                { text: 'Let me look.' },
                { functionCall: { name: 'read_theme' }, thoughtSignature: 'sig' },
                { functionCall: { name: 'read_screen', args: { id: 'A' } } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
      CREATED,
    );
    expect(completion.choices[0]?.message).toStrictEqual({
      role: 'assistant',
      content: 'Let me look.',
      reasoning: '**Planning**\nChecking both.',
      tool_calls: [
        { id: 'call_0', type: 'function', function: { name: 'read_theme', arguments: '{}' } },
        { id: 'call_1', type: 'function', function: { name: 'read_screen', arguments: '{"id":"A"}' } },
      ],
    });
    expect(completion).toMatchObject({ id: '', model: '' });
    expect(completion).not.toHaveProperty('usage');
  });

  it('maps a candidate blocked for safety to content_filter with no content', () => {
    const completion = convertGeminiResponse(
      { candidates: [{ finishReason: 'SAFETY', index: 0 }], modelVersion: 'gemini-2.5-flash' },
      CREATED,
    );
    expect(completion.choices).toStrictEqual([
      { index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter', native_finish_reason: 'SAFETY' },
    ]);
  });

  it('maps MAX_TOKENS to length and a malformed function call to error', () => {
    const finish = (finishReason: string) =>
      convertGeminiResponse({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason }] }, CREATED).choices[0]?.finish_reason;
    expect(finish('MAX_TOKENS')).toBe('length');
    expect(finish('MALFORMED_FUNCTION_CALL')).toBe('error');
  });
});

describe('Google Search grounding', () => {
  // Gemini's documented grounding shape: pages in groundingChunks, supported spans (UTF-8 byte offsets) in groundingSupports.
  const grounded: GeminiResponse = {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: 'Spain won Euro 2024. ⚽ They beat England 2–1.' }] },
        finishReason: 'STOP',
        groundingMetadata: {
          webSearchQueries: ['euro 2024 winner'],
          groundingChunks: [
            { web: { uri: 'https://news.example.com/euro', title: 'news.example.com' } },
            { web: { uri: 'https://sport.example.org/final', title: 'sport.example.org' } },
            { web: { uri: 'https://unused.example.net/', title: 'unused.example.net' } },
          ],
          groundingSupports: [
            { segment: { endIndex: 20, text: 'Spain won Euro 2024.' }, groundingChunkIndices: [0] },
            { segment: { startIndex: 25, endIndex: 49, text: 'They beat England 2–1.' }, groundingChunkIndices: [0, 1] },
          ],
        },
      },
    ],
  };

  it('makes each supported span a url_citation per page, in code points, and lists unused pages at 0..0', () => {
    const message = convertGeminiResponse(grounded, CREATED).choices[0]!.message;
    const content = message.content!;
    const [first, second, third, unused] = message.annotations as {
      url_citation: { url: string; start_index: number; end_index: number; content?: string };
    }[];
    expect(first!.url_citation).toEqual({
      url: 'https://news.example.com/euro',
      title: 'news.example.com',
      content: 'Spain won Euro 2024.',
      start_index: 0,
      end_index: 20,
    });
    // "⚽" is 3 bytes in UTF-8 and one code point; "–" is 3 bytes too.
    expect([...content].slice(second!.url_citation.start_index, second!.url_citation.end_index).join('')).toBe('They beat England 2–1.');
    expect(third!.url_citation).toMatchObject({ url: 'https://sport.example.org/final', start_index: second!.url_citation.start_index });
    expect(unused!.url_citation).toEqual({ url: 'https://unused.example.net/', title: 'unused.example.net', start_index: 0, end_index: 0 });
  });

  it('has no annotations without grounding', () => {
    expect(convertRecording('gemini/google-text.json').choices[0]?.message).not.toHaveProperty('annotations');
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { readFixtureEvents } from '../shared/recorded-fixtures.testing.js';
import { GeminiStreamConverter } from './convert-gemini-stream-chunk.js';
import type { GeminiResponse } from './gemini-api-types.js';

const CREATED = 1_770_000_000;

/** Every event of a recording through one converter, and the usage chunk after the end of the body. */
function convertRecording(name: string): { perEvent: ChatCompletionChunk[][]; usage: ChatCompletionChunk | undefined; finished: boolean } {
  const converter = new GeminiStreamConverter(CREATED);
  const perEvent = readFixtureEvents(name).map((line) => converter.convert(JSON.parse(line) as GeminiResponse));
  return { perEvent, usage: converter.usageChunk(), finished: converter.finished };
}

const chunkOf = (id: string, model: string, choices: ChatCompletionChunk['choices']): ChatCompletionChunk => ({
  id,
  object: 'chat.completion.chunk',
  created: CREATED,
  model,
  choices,
});

describe('GeminiStreamConverter', () => {
  it('streams google-text chunk by chunk: role first, the empty signed text adds nothing, usage once at the end', () => {
    const { perEvent, usage, finished } = convertRecording('gemini/google-text.chunks.txt');
    const chunk = (choices: ChatCompletionChunk['choices']) => chunkOf('bH6LaZW8Fp_3nsEPqtaSwQ4', 'gemini-3-pro-preview', choices);
    expect(perEvent).toStrictEqual([
      [chunk([{ index: 0, delta: { role: 'assistant', content: 'There are **3**' }, finish_reason: null }])],
      [chunk([{ index: 0, delta: { content: ' "r"s in strawberry.\n\nst**r**awbe**rr**y' }, finish_reason: null }])],
      [chunk([{ index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'STOP' }])],
    ]);
    expect(usage).toStrictEqual({
      ...chunk([]),
      usage: { prompt_tokens: 9, completion_tokens: 208, total_tokens: 217, completion_tokens_details: { reasoning_tokens: 185 } },
    });
    expect(finished).toBe(true);
  });

  it('streams google-tool-call: a whole call in one delta with id call_0, then tool_calls', () => {
    const { perEvent, usage } = convertRecording('gemini/google-tool-call.chunks.txt');
    const chunk = (choices: ChatCompletionChunk['choices']) => chunkOf('b36LacjwM668nsEP2tbsgQQ', 'gemini-3-pro-preview', choices);
    expect(perEvent).toStrictEqual([
      [
        chunk([
          {
            index: 0,
            delta: {
              role: 'assistant',
              tool_calls: [
                { index: 0, id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } },
              ],
            },
            finish_reason: null,
          },
        ]),
      ],
      [chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls', native_finish_reason: 'STOP' }])],
    ]);
    expect(usage?.usage).toStrictEqual({
      prompt_tokens: 29,
      completion_tokens: 60,
      total_tokens: 89,
      completion_tokens_details: { reasoning_tokens: 45 },
    });
  });

  it('streams google-stream-no-args-tool-call: thoughts as reasoning, a no-argument call as {}, partialArgs joined per call', () => {
    const { perEvent, usage } = convertRecording('gemini/google-stream-no-args-tool-call.chunks.txt');
    const chunk = (choices: ChatCompletionChunk['choices']) => chunkOf('_vr4aYiWEJnYodAPkujX0QM', 'gemini-3-flash-preview', choices);
    const delta = (value: ChatCompletionChunk['choices'][number]['delta']) => [chunk([{ index: 0, delta: value, finish_reason: null }])];
    const start = (index: number) =>
      delta({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: 'read_screen', arguments: '' } }] });
    const args = (index: number, id: string) => delta({ tool_calls: [{ index, function: { arguments: `{"id":"${id}"}` } }] });
    expect(perEvent).toStrictEqual([
      delta({ role: 'assistant', reasoning: expect.stringMatching(/^\*\*Processing User Requests\*\*\n\nI've started/) }),
      delta({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_theme', arguments: '{}' } }] }),
      start(1),
      [],
      [],
      args(1, 'A'),
      start(2),
      [],
      [],
      args(2, 'B'),
      start(3),
      [],
      [],
      args(3, 'C'),
      [chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls', native_finish_reason: 'STOP' }])],
    ]);
    expect(usage?.usage).toStrictEqual({
      prompt_tokens: 249,
      completion_tokens: 241,
      total_tokens: 490,
      completion_tokens_details: { reasoning_tokens: 183 },
    });
  });

  it('streams issue-19758-prompt-block: one empty content_filter chunk with the block reason', () => {
    const { perEvent, usage, finished } = convertRecording('gemini/issue-19758-prompt-block.chunks.txt');
    const chunk = (choices: ChatCompletionChunk['choices']) => chunkOf('EXCPatOAKMrQjMcPteHVmQo', 'gemini-3.7-flash', choices);
    expect(perEvent).toStrictEqual([
      [
        chunk([
          {
            index: 0,
            delta: { role: 'assistant', content: '' },
            finish_reason: 'content_filter',
            native_finish_reason: 'PROHIBITED_CONTENT',
          },
        ]),
      ],
    ]);
    expect(usage?.usage).toStrictEqual({ prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 });
    expect(finished).toBe(true);
  });

  it('closes a call still streaming when the finish reason arrives, and ignores pieces of no known call', () => {
    const converter = new GeminiStreamConverter(CREATED);
    const event = (parts: GeminiResponse['candidates'], extra: Partial<GeminiResponse> = {}): GeminiResponse => ({
      candidates: parts,
      ...extra,
    });
    expect(
      converter.convert(event([{ content: { parts: [{ functionCall: { partialArgs: [{ jsonPath: '$.x', stringValue: 'lost' }] } }] } }])),
    ).toEqual([]);
    converter.convert(event([{ content: { parts: [{ functionCall: { name: 'search', willContinue: true } }] } }]));
    converter.convert(
      event([{ content: { parts: [{ functionCall: { partialArgs: [{ jsonPath: '$.q', stringValue: 'cats' }], willContinue: true } }] } }]),
    );
    const [last] = converter.convert(event([{ content: { parts: [{ text: '' }] }, finishReason: 'STOP' }]));
    expect(last?.choices).toStrictEqual([
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":"cats"}' } }] },
        finish_reason: 'tool_calls',
        native_finish_reason: 'STOP',
      },
    ]);
  });

  it('is not finished, and has no usage, before a finish reason', () => {
    const converter = new GeminiStreamConverter(CREATED);
    expect(converter.convert({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] })).toHaveLength(1);
    expect(converter.finished).toBe(false);
    expect(converter.usageChunk()).toBeUndefined();
  });
});

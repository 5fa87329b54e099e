import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { readFixtureEvents } from '../shared/recorded-fixtures.testing.js';
import type { AnthropicStreamEvent } from './anthropic-messages-api-types.js';
import { convertAnthropicStreamEvent, createAnthropicStreamState } from './convert-anthropic-stream-event.js';

const CREATED = 1_770_000_000;

/** Each recorded event beside the chunk it converts to (undefined: nothing for the client). */
function replay(name: string): { type: string; chunk: ChatCompletionChunk | undefined }[] {
  const state = createAnthropicStreamState(CREATED);
  return readFixtureEvents(name).map((data) => {
    const event = JSON.parse(data) as AnthropicStreamEvent;
    return { type: event.type, chunk: convertAnthropicStreamEvent(event, state) };
  });
}

const chunksOf = (name: string) => replay(name).flatMap(({ chunk }) => (chunk ? [chunk] : []));
const deltaOf = (chunk: ChatCompletionChunk | undefined) => chunk?.choices[0]?.delta;

/** What a client rebuilds from the deltas. */
function assemble(chunks: ChatCompletionChunk[]) {
  let content = '';
  let reasoning = '';
  const calls: { id?: string; type?: string; name: string; arguments: string }[] = [];
  for (const delta of chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta))) {
    content += delta.content ?? '';
    reasoning += delta.reasoning ?? '';
    for (const call of delta.tool_calls ?? []) {
      const target = (calls[call.index] ??= { name: '', arguments: '' });
      if (call.id) Object.assign(target, { id: call.id, type: call.type });
      target.name += call.function?.name ?? '';
      target.arguments += call.function?.arguments ?? '';
    }
  }
  return { content, reasoning, calls };
}

describe('convertAnthropicStreamEvent', () => {
  it('maps anthropic-text event by event: role chunk, text deltas, and a final chunk with finish reason and usage', () => {
    const events = replay('anthropic/anthropic-text.chunks.txt');
    expect(events.map(({ type, chunk }) => [type, chunk !== undefined])).toEqual([
      ['message_start', true],
      ['content_block_start', false],
      ['ping', false],
      ['content_block_delta', true],
      ['content_block_delta', true],
      ['content_block_delta', true],
      ['content_block_delta', true],
      ['content_block_delta', true],
      ['content_block_delta', true],
      ['content_block_stop', false],
      ['message_delta', false],
      ['message_stop', true],
    ]);
    expect(events[0]?.chunk).toStrictEqual({
      id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
      object: 'chat.completion.chunk',
      created: CREATED,
      model: 'claude-sonnet-4-5-20250929',
      service_tier: 'standard',
      choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }],
    });
    expect(deltaOf(events[3]?.chunk)).toStrictEqual({ content: 'Hello' });
    expect(events.at(-1)?.chunk).toStrictEqual({
      id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
      object: 'chat.completion.chunk',
      created: CREATED,
      model: 'claude-sonnet-4-5-20250929',
      service_tier: 'standard',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop', native_finish_reason: 'end_turn' }],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 30,
        total_tokens: 42,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      },
    });
    expect(assemble(chunksOf('anthropic/anthropic-text.chunks.txt')).content).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(JSON.stringify(events)).not.toContain('system_fingerprint');
  });

  it('maps anthropic-tool-no-args: a tool call in block 1 is call 0, and a call that streams no JSON gets "{}"', () => {
    const events = replay('anthropic/anthropic-tool-no-args.chunks.txt');
    const toolStart = events.find(({ chunk }) => deltaOf(chunk)?.tool_calls?.[0]?.id);
    expect(deltaOf(toolStart?.chunk)).toStrictEqual({
      tool_calls: [
        { index: 0, id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', type: 'function', function: { name: 'updateIssueList', arguments: '' } },
      ],
    });
    // The one input_json_delta is empty; the stop of the tool block sends the arguments.
    expect(events.slice(-5).map(({ type, chunk }) => [type, deltaOf(chunk)])).toEqual([
      ['ping', undefined],
      ['content_block_delta', undefined],
      ['content_block_stop', { tool_calls: [{ index: 0, function: { arguments: '{}' } }] }],
      ['message_delta', undefined],
      ['message_stop', {}],
    ]);
    const chunks = chunksOf('anthropic/anthropic-tool-no-args.chunks.txt');
    expect(assemble(chunks)).toEqual({
      content: "I'll update the issue list for you.",
      reasoning: '',
      calls: [{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', type: 'function', name: 'updateIssueList', arguments: '{}' }],
    });
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ finish_reason: 'tool_calls', native_finish_reason: 'tool_use' });
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 565, completion_tokens: 48, total_tokens: 613 });
  });

  it('maps issue-10781: tool arguments arriving in input_json_delta pieces become argument deltas', () => {
    const chunks = chunksOf('anthropic/issue-10781.1.chunks.txt');
    const argumentDeltas = chunks.flatMap((chunk) => deltaOf(chunk)?.tool_calls ?? []).filter((call) => !call.id);
    expect(argumentDeltas).toEqual([
      { index: 0, function: { arguments: '{"city": "San Francisco' } },
      { index: 0, function: { arguments: '"}' } },
    ]);
    expect(assemble(chunks)).toEqual({
      content: 'Let me check.',
      reasoning: '',
      calls: [{ id: 'toolu_01Ni1uw4HXYxUhc4iFMqx7yY', type: 'function', name: 'get_weather', arguments: '{"city": "San Francisco"}' }],
    });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('maps anthropic-clear-thinking: thinking deltas become reasoning; empty deltas and the signature give nothing', () => {
    const events = replay('anthropic/anthropic-clear-thinking.1.chunks.txt');
    expect(deltaOf(events[3]?.chunk)).toStrictEqual({ reasoning: 'The previous' });
    const [emptyThinking, signature] = events.slice(12, 14);
    expect([emptyThinking?.chunk, signature?.chunk]).toEqual([undefined, undefined]);
    const chunks = chunksOf('anthropic/anthropic-clear-thinking.1.chunks.txt');
    expect(assemble(chunks)).toMatchObject({
      reasoning: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
      content: '925 ÷ 5 = 185',
    });
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 69, completion_tokens: 53 });
    expect(JSON.stringify(chunks)).not.toMatch(/signature|context_management/);
  });

  it("maps the prompt-cache recording: message_delta's cumulative counts replace message_start's, server tools stay hidden", () => {
    const chunks = chunksOf('anthropic/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt');
    expect(assemble(chunks)).toEqual({
      content: 'The sum of the squares of the numbers 1 through 12 is **650**.',
      reasoning: '',
      calls: [],
    });
    expect(chunks.filter((chunk) => chunk.usage)).toHaveLength(1);
    expect(chunks.at(-1)?.usage).toStrictEqual({
      prompt_tokens: 6 + 6289 + 3337,
      completion_tokens: 198,
      total_tokens: 6 + 6289 + 3337 + 198,
      prompt_tokens_details: { cached_tokens: 6289, cache_write_tokens: 3337 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(JSON.stringify(chunks)).not.toMatch(/srvtoolu|bash_code_execution|container/);
  });

  it("keeps message_start's input counts when message_delta reports only output", () => {
    const state = createAnthropicStreamState(CREATED);
    convertAnthropicStreamEvent(
      {
        type: 'message_start',
        message: { id: 'm', model: 'c', content: [], usage: { input_tokens: 40, cache_read_input_tokens: 100, output_tokens: 1 } },
      },
      state,
    );
    convertAnthropicStreamEvent(
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 16, input_tokens: null } },
      state,
    );
    const final = convertAnthropicStreamEvent({ type: 'message_stop' }, state);
    expect(final?.choices[0]).toMatchObject({ finish_reason: 'length', native_finish_reason: 'max_tokens' });
    expect(final?.usage).toMatchObject({
      prompt_tokens: 140,
      completion_tokens: 16,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 0 },
    });
    expect(state.stopped).toBe(true);
  });

  it('ignores event types it does not know, as Anthropic may add some', () => {
    const state = createAnthropicStreamState(CREATED);
    expect(convertAnthropicStreamEvent({ type: 'compaction_started' }, state)).toBeUndefined();
    expect(
      convertAnthropicStreamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta' } }, state),
    ).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../protocol/chat.js';
import {
  convertChatCompletionToResponse,
  type ItemIds,
  responseEnding,
  responseShell,
  responsesUsage,
} from './convert-chat-to-response.js';

const counter = (): ItemIds => {
  let n = 0;
  return (prefix) => `${prefix}_${++n}`;
};

const shell = responseShell(
  { input: 'hi', instructions: 'Be brief.', tools: [{ type: 'function', name: 'f' }], text: { format: { type: 'json_object' } } },
  { id: 'gen-1', model: 'm', createdAt: 100 },
);

const completion = (
  message: ChatCompletion['choices'][number]['message'],
  finish: ChatCompletion['choices'][number]['finish_reason'] = 'stop',
): ChatCompletion => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 100,
  model: 'up',
  system_fingerprint: null,
  choices: [{ index: 0, message, finish_reason: finish }],
  usage: {
    prompt_tokens: 10,
    completion_tokens: 5,
    total_tokens: 15,
    prompt_tokens_details: { cached_tokens: 2 },
    completion_tokens_details: { reasoning_tokens: 3 },
  },
});

describe('responseShell', () => {
  it("echoes the request's settings, in progress, with the API's defaults", () => {
    expect(shell).toMatchObject({
      id: 'gen-1',
      object: 'response',
      created_at: 100,
      status: 'in_progress',
      model: 'm',
      output: [],
      instructions: 'Be brief.',
      tool_choice: 'auto',
      parallel_tool_calls: true,
      tools: [{ type: 'function', name: 'f', strict: true, description: null, parameters: null }],
      text: { format: { type: 'json_object' } },
      usage: null,
      error: null,
    });
  });
});

describe('convertChatCompletionToResponse', () => {
  it('makes reasoning, text and tool calls output items, in order', () => {
    const response = convertChatCompletionToResponse(
      completion(
        {
          role: 'assistant',
          content: 'Checking.',
          reasoning: 'think',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        'tool_calls',
      ),
      shell,
      counter(),
      101,
    );
    expect(response).toMatchObject({ status: 'completed', completed_at: 101, incomplete_details: null });
    expect(response.output).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: 'think' }], status: 'completed' },
      {
        type: 'message',
        id: 'msg_2',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [], logprobs: [] }],
      },
      { type: 'function_call', id: 'fc_3', call_id: 'c1', name: 'f', arguments: '{}', status: 'completed' },
    ]);
    expect(response.usage).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 15,
    });
  });

  it('lays a url_citation out as the Responses API does', () => {
    const citation = { type: 'url_citation', url_citation: { url: 'https://example.com', title: 'Ex', start_index: 0, end_index: 4 } };
    const response = convertChatCompletionToResponse(
      completion({ role: 'assistant', content: 'Text', annotations: [citation] }),
      shell,
      counter(),
      101,
    );
    expect(response.output[0]).toMatchObject({
      content: [{ annotations: [{ type: 'url_citation', url: 'https://example.com', title: 'Ex', start_index: 0, end_index: 4 }] }],
    });
  });

  it('makes a cut answer incomplete, and a refusal a refusal part', () => {
    const cut = convertChatCompletionToResponse(completion({ role: 'assistant', content: 'Once upon' }, 'length'), shell, counter(), 101);
    expect(cut).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ status: 'incomplete' }],
    });
    const refused = convertChatCompletionToResponse(
      completion({ role: 'assistant', content: null, refusal: 'No.' }),
      shell,
      counter(),
      101,
    );
    expect(refused.output).toEqual([
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'No.' }] },
    ]);
  });
});

describe('responseEnding and responsesUsage', () => {
  it('reads finish reasons and fills missing details with zeros', () => {
    expect(responseEnding('content_filter')).toEqual({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    expect(responseEnding('tool_calls')).toEqual({ status: 'completed', incomplete_details: null });
    expect(responsesUsage({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 3,
    });
  });
});

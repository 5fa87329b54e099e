import { describe, expect, it } from 'vitest';
import type { FunctionTool } from '../protocol/chat.js';
import { planReply, type Reply, type SimChatRequest } from './reply.js';
import { countPromptTokens, splitTokens } from './tokens.js';

const ask = (content: string, extra: Partial<SimChatRequest> = {}): SimChatRequest => ({
  model: 'sim-model',
  messages: [{ role: 'user', content }],
  ...extra,
});
const text = (reply: Reply) => (reply.kind === 'text' ? reply.chunks.flat().join('') : undefined);

const weatherTool: FunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } } },
  },
};
const otherTool: FunctionTool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } };

describe('tokens', () => {
  it('splits text into words and punctuation with their leading whitespace, losing nothing', () => {
    expect(splitTokens('Hello, world! ')).toEqual(['Hello', ',', ' world', '!', ' ']);
    expect(splitTokens('{"a":"b c"}')).toEqual(['{"', 'a', '":"', 'b', ' c', '"}']);
  });

  it('counts prompt tokens as characters of message text and tool JSON over 4, rounded up', () => {
    expect(countPromptTokens([{ role: 'user', content: 'abcde' }], undefined)).toBe(2);
    expect(countPromptTokens([{ role: 'user', content: [{ type: 'text', text: 'abcd' }] }], undefined)).toBe(1);
    expect(countPromptTokens([{ role: 'user', content: 'abcd' }], [otherTool])).toBe(
      Math.ceil((4 + JSON.stringify([otherTool]).length) / 4),
    );
  });
});

describe('planReply', () => {
  it('echoes the last user message after a fixed opening, the same every time', () => {
    const reply = planReply(ask('Tell me a joke'), undefined);
    expect(text(reply)).toBe('This is a simulated reply. You said: Tell me a joke');
    expect(planReply(ask('Tell me a joke'), undefined)).toEqual(reply);
    expect(reply).toMatchObject({
      kind: 'text',
      finishReason: 'stop',
      usage: { completion_tokens: 13, prompt_tokens: 4, total_tokens: 17 },
    });
  });

  it('stops at max_completion_tokens (or max_tokens) with finish_reason length', () => {
    const reply = planReply(ask('hi', { max_completion_tokens: 3 }), undefined);
    expect(text(reply)).toBe('This is a');
    expect(reply).toMatchObject({ finishReason: 'length', usage: { completion_tokens: 3 } });
    expect(text(planReply(ask('hi', { max_tokens: 2 }), undefined))).toBe('This is');
  });

  it('cuts before the earliest stop string, which is not sent', () => {
    const reply = planReply(ask('one two three', { stop: ['three', 'simul'] }), undefined);
    expect(text(reply)).toBe('This is a ');
    expect(reply).toMatchObject({ finishReason: 'stop' });
  });

  it('splits the reply into exactly `chunks` content chunks, lengthening a short reply', () => {
    const grouped = planReply(ask('hi'), 3);
    expect(grouped.kind === 'text' && grouped.chunks).toHaveLength(3);
    expect(text(grouped)).toBe(text(planReply(ask('hi'), undefined)));

    const lengthened = planReply(ask('hi'), 40);
    expect(lengthened.kind === 'text' && lengthened.chunks).toHaveLength(40);
    expect(lengthened.usage.completion_tokens).toBe(40);
  });

  it('calls the weather tool when the conversation ends with a user asking about the weather', () => {
    const reply = planReply(ask("What's the weather in Paris?", { tools: [otherTool, weatherTool] }), undefined);
    expect(reply).toMatchObject({ kind: 'tool_call', name: 'get_weather', arguments: '{"location":"sim","unit":"celsius"}' });
    expect(reply.kind === 'tool_call' && reply.argumentChunks.join('')).toBe('{"location":"sim","unit":"celsius"}');
    expect(reply.kind === 'tool_call' && reply.argumentChunks.length).toBeGreaterThan(3);
  });

  it('answers in text after the tool result, with tool_choice none, and without tools', () => {
    const afterResult = ask('weather?', { tools: [weatherTool] });
    afterResult.messages.push(
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    );
    expect(planReply(afterResult, undefined).kind).toBe('text');
    expect(planReply(ask('weather?', { tools: [weatherTool], tool_choice: 'none' }), undefined).kind).toBe('text');
    expect(planReply(ask('weather?'), undefined).kind).toBe('text');
  });

  it('fetches the URL the user gives, or searches for the user’s words, with a tool that takes them', () => {
    const fetchTool = {
      type: 'function' as const,
      function: { name: 'web_fetch', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
    };
    const searchTool = {
      type: 'function' as const,
      function: { name: 'web_search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
    };
    const tools = [weatherTool, fetchTool, searchTool];
    expect(planReply(ask('Summarize https://example.com/a?b=1 please', { tools }), undefined)).toMatchObject({
      kind: 'tool_call',
      name: 'web_fetch',
      arguments: '{"url":"https://example.com/a?b=1"}',
    });
    expect(planReply(ask('search for moon distance', { tools }), undefined)).toMatchObject({
      kind: 'tool_call',
      name: 'web_search',
      arguments: '{"query":"search for moon distance"}',
    });
    expect(planReply(ask('Summarize https://example.com/a', { tools: [weatherTool] }), undefined).kind).toBe('text');
  });

  it('reports what the tool said after a tool result', () => {
    const request = ask('Summarize https://example.com/a', { tools: [weatherTool] });
    request.messages.push(
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'web_fetch', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"title":"Moon facts"}' },
    );
    const reply = planReply(request, undefined);
    expect(reply.kind === 'text' && reply.chunks.flat().join('')).toBe('This is a simulated reply. The tool said: {"title":"Moon facts"}');
  });

  it('works through the tools the user names, one per turn in the order named, then answers', () => {
    const fetch = {
      type: 'function',
      function: { name: 'http_fetch', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
    } as const;
    const notify = {
      type: 'function',
      function: { name: 'notify', parameters: { type: 'object', properties: { report: { type: 'string' } } } },
    } as const;
    const request = ask('Use http_fetch on https://example.com/p then notify me', { tools: [notify, fetch] });
    expect(planReply(request, undefined)).toMatchObject({
      kind: 'tool_call',
      name: 'http_fetch',
      arguments: '{"url":"https://example.com/p"}',
    });
    request.messages.push(
      { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'http_fetch', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'HTTP 200 prices up' },
    );
    expect(planReply(request, undefined)).toMatchObject({
      kind: 'tool_call',
      name: 'notify',
      arguments: '{"report":"Found: HTTP 200 prices up"}',
    });
    request.messages.push(
      { role: 'assistant', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'notify', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'delivered' },
    );
    expect(planReply(request, undefined).kind).toBe('text');
  });

  it('calls the function tool_choice forces, or any tool with "required"', () => {
    const forced = planReply(
      ask('hello', { tools: [weatherTool, otherTool], tool_choice: { type: 'function', function: { name: 'lookup' } } }),
      undefined,
    );
    expect(forced).toMatchObject({ kind: 'tool_call', name: 'lookup', arguments: '{}' });
    expect(planReply(ask('hello', { tools: [otherTool], tool_choice: 'required' }), undefined)).toMatchObject({ name: 'lookup' });
  });

  it('answers JSON under response_format json_object and json_schema', () => {
    expect(JSON.parse(text(planReply(ask('hi', { response_format: { type: 'json_object' } }), undefined)) ?? '')).toEqual({
      reply: 'This is a simulated reply. You said: hi',
    });
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } },
      $defs: { tag: { type: 'string', enum: ['a', 'b'] } },
    };
    const reply = planReply(ask('hi', { response_format: { type: 'json_schema', json_schema: { name: 'person', schema } } }), undefined);
    expect(JSON.parse(text(reply) ?? '')).toEqual({ name: 'sim', age: 1, tags: ['a'] });
  });

  it('counts reasoning tokens for reasoning models by effort, inside completion_tokens and the token limit', () => {
    const medium = planReply({ ...ask('hi'), model: 'sim-reason' }, undefined);
    const high = planReply({ ...ask('hi', { reasoning_effort: 'high' }), model: 'sim-reason' }, undefined);
    expect(medium.usage.completion_tokens_details.reasoning_tokens).toBe(64);
    expect(high.usage.completion_tokens_details.reasoning_tokens).toBe(256);
    expect(high.usage.completion_tokens).toBe(256 + 10);
    expect(planReply(ask('hi', { reasoning_effort: 'high' }), undefined).usage.completion_tokens_details.reasoning_tokens).toBe(0);

    const starved = planReply({ ...ask('hi', { max_completion_tokens: 70 }), model: 'sim-reason' }, undefined);
    expect(text(starved)).toBe('This is a simulated reply.');
    expect(starved).toMatchObject({ finishReason: 'length', usage: { completion_tokens: 70 } });
  });
});

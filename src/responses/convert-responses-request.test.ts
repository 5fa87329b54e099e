import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResponsesInputItem } from '../protocol/responses.js';
import { convertResponsesInput, convertResponsesRequest, convertTextFormat } from './convert-responses-request.js';

describe('convertResponsesInput', () => {
  it('gives an earlier code run back to the model as its call of code_interpreter and what it printed', () => {
    const messages = convertResponsesInput([
      { role: 'user', content: 'compute' },
      {
        type: 'code_interpreter_call',
        id: 'ci_1',
        status: 'completed',
        code: 'print(42)',
        container_id: 'cntr_1',
        outputs: [{ type: 'logs', logs: '42\n' }],
      },
      { type: 'code_interpreter_call', id: 'ci_2', status: 'failed', code: null, outputs: null },
    ]);
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'ci_1', type: 'function', function: { name: 'code_interpreter', arguments: '{"code":"print(42)"}' } }],
      },
      { role: 'tool', tool_call_id: 'ci_1', content: '{"container_id":"cntr_1","status":"completed","logs":"42\\n"}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'ci_2', type: 'function', function: { name: 'code_interpreter', arguments: '{"code":""}' } }],
      },
      { role: 'tool', tool_call_id: 'ci_2', content: '{"status":"failed"}' },
    ]);
  });

  it('gathers a run of function calls into one assistant turn, in order, however long the run', () => {
    const calls = Array.from(
      { length: 50_000 },
      (_, i): ResponsesInputItem => ({ type: 'function_call', call_id: `c${i}`, name: 'f', arguments: '{}' }),
    );
    const [turn] = convertResponsesInput(calls);
    expect(turn).toMatchObject({ role: 'assistant', content: null });
    const toolCalls = (turn as { tool_calls: { id: string }[] }).tool_calls;
    expect(toolCalls).toHaveLength(50_000);
    expect(toolCalls.map((c) => c.id).slice(-2)).toEqual(['c49998', 'c49999']);
  });

  it('makes a string input one user message, after the instructions as a system message', () => {
    expect(convertResponsesInput('hello', 'Be brief.')).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello' },
    ]);
    expect(convertResponsesInput('hello', null)).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it("converts messages' parts to chat's, by role", () => {
    expect(
      convertResponsesInput([
        { role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'look' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' },
          ],
        },
        { role: 'assistant', content: [{ type: 'output_text', text: 'seen', annotations: [] }] },
      ]),
    ).toEqual([
      { role: 'developer', content: [{ type: 'text', text: 'rules' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
          { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'seen' }] },
    ]);
  });

  it("gathers function calls into one assistant turn (after its text) and makes each output its call's tool message", () => {
    expect(
      convertResponsesInput([
        { role: 'user', content: 'weather in Paris and Rome?' },
        { role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'c2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'rainy' }] },
      ]),
    ).toEqual([
      { role: 'user', content: 'weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'rainy' }] },
    ]);
  });

  it('starts a new assistant turn for calls after a tool result', () => {
    const messages = convertResponsesInput([
      { type: 'function_call', call_id: 'c1', name: 'a', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'x' },
      { type: 'function_call', call_id: 'c2', name: 'b', arguments: '{}' },
    ]);
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(messages[0]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } }],
    });
  });
});

describe('convertTextFormat', () => {
  it("nests json_schema's fields as chat's response_format does", () => {
    expect(convertTextFormat({ type: 'json_schema', name: 'p', schema: { type: 'object' }, strict: true })).toEqual({
      type: 'json_schema',
      json_schema: { name: 'p', schema: { type: 'object' }, strict: true },
    });
    expect(convertTextFormat({ type: 'json_object' })).toEqual({ type: 'json_object' });
  });
});

describe('convertResponsesRequest', () => {
  it("maps the Responses settings to chat's", () => {
    expect(
      convertResponsesRequest({
        input: 'hi',
        tools: [{ type: 'function', name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true }],
        tool_choice: { type: 'function', name: 'f' },
        parallel_tool_calls: false,
        text: { format: { type: 'json_object' } },
        reasoning: { effort: 'high', summary: 'auto' },
        max_output_tokens: 100,
        temperature: 0.5,
        top_p: 0.9,
        top_logprobs: 2,
        metadata: { a: 'b' },
        user: 'u',
        stream: true,
        prompt_cache_key: 'k',
      }),
    ).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_object' },
      reasoning: { effort: 'high', summary: 'auto' },
      max_completion_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      logprobs: true,
      top_logprobs: 2,
      metadata: { a: 'b' },
      user: 'u',
      stream: true,
      prompt_cache_key: 'k',
    });
  });

  it('leaves out what is not set', () => {
    expect(convertResponsesRequest({ input: 'hi', tools: [], reasoning: null, max_output_tokens: null, text: null })).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});

describe('convertResponsesInput, any sequence of items', () => {
  const text = fc.string({ maxLength: 8 });
  const item = fc.oneof(
    fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const, 'developer' as const), content: text }),
    fc.record({
      type: fc.constant('function_call' as const),
      call_id: fc.uuid(),
      name: fc.constantFrom('a', 'b'),
      arguments: fc.constant('{}'),
    }),
    fc.record({ type: fc.constant('function_call_output' as const), call_id: fc.uuid(), output: text }),
    fc.record({ type: fc.constant('reasoning' as const), id: fc.uuid(), summary: fc.constant([]) }),
  );

  it('keeps every call once, in order, every output as its tool message, and drops only reasoning', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        const messages = convertResponsesInput(items as ResponsesInputItem[]);
        const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
        expect(calls).toEqual(items.flatMap((i) => ('type' in i && i.type === 'function_call' ? [i.call_id] : [])));
        const outputs = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
        expect(outputs).toEqual(items.flatMap((i) => ('type' in i && i.type === 'function_call_output' ? [i.call_id] : [])));
        const spoken = items.filter((i) => !('type' in i)).length;
        const assistantOnlyCalls = messages.filter((m) => m.role === 'assistant' && m.content === null).length;
        expect(messages.length - outputs.length - assistantOnlyCalls).toBe(spoken);
      }),
    );
  });
});

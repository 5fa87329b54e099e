import { describe, expect, it } from 'vitest';
import { convertMessagesRequest } from './convert-messages-request.js';
import type { MessagesRequestBody } from './schemas.js';

const base = { model: 'anthropic/claude', max_tokens: 100 };

describe('convertMessagesRequest', () => {
  it('takes a user turn of more tool results than a spread into push could hold (200,000)', () => {
    const content = Array.from({ length: 200_000 }, (_, i) => ({ type: 'tool_result' as const, tool_use_id: `t${i}`, content: 'ok' }));
    const { messages } = convertMessagesRequest({ ...base, messages: [{ role: 'user', content }] });
    expect(messages).toHaveLength(200_000);
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 't199999', content: 'ok' });
  });

  it('makes system a system message and keeps the sampling and stop fields under their chat names', () => {
    const body: MessagesRequestBody = {
      ...base,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      stop_sequences: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      stream: true,
      metadata: { user_id: 'alice' },
      service_tier: 'standard_only',
    };
    expect(convertMessagesRequest(body)).toEqual({
      model: 'anthropic/claude',
      max_tokens: 100,
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stop: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      user: 'alice',
      service_tier: 'default',
    });
  });

  it('keeps cache_control on system blocks and text blocks', () => {
    const chat = convertMessagesRequest({
      ...base,
      system: [{ type: 'text', text: 'Rules', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Long', cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Rules', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: [{ type: 'text', text: 'Long', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ]);
  });

  it('makes images and PDF documents content parts', () => {
    const chat = convertMessagesRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'paper.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
          ],
        },
      ],
    });
    expect(chat.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        { type: 'file', file: { filename: 'paper.pdf', file_data: 'data:application/pdf;base64,JVBE' } },
        { type: 'text', text: 'plain words' },
      ],
    });
  });

  it('makes tool_use blocks tool calls, thinking reasoning, and tool_result blocks tool messages ahead of the rest of the turn', () => {
    const chat = convertMessagesRequest({
      ...base,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Call the tool.', signature: 'sig' },
            { type: 'redacted_thinking', data: 'xyz' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And be quick.' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'Sunny' },
                { type: 'text', text: '21°C' },
              ],
            },
          ],
        },
      ],
    });
    expect(chat.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        reasoning: 'Call the tool.',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny\n21°C' },
      { role: 'user', content: [{ type: 'text', text: 'And be quick.' }] },
    ]);
  });

  it('makes client tools functions, drops Anthropic server tools, and maps tool_choice and disable_parallel_tool_use', () => {
    const tools = [
      { name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search' },
    ];
    expect(
      convertMessagesRequest({
        ...base,
        messages: [{ role: 'user', content: 'x' }],
        tools,
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
      }),
    ).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    const named = convertMessagesRequest({
      ...base,
      messages: [{ role: 'user', content: 'x' }],
      tools,
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    expect(named.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(
      convertMessagesRequest({ ...base, messages: [{ role: 'user', content: 'x' }], tools, tool_choice: { type: 'none' } }).tool_choice,
    ).toBe('none');
  });

  it.each([
    [{ type: 'enabled', budget_tokens: 2048 }, { max_tokens: 2048 }],
    [{ type: 'adaptive' }, { enabled: true }],
    [{ type: 'disabled' }, { enabled: false }],
  ] as const)('maps thinking %j to reasoning %j', (thinking, reasoning) => {
    expect(convertMessagesRequest({ ...base, messages: [{ role: 'user', content: 'x' }], thinking }).reasoning).toEqual(reasoning);
  });

  it("passes the gateway's routing fields on", () => {
    const chat = convertMessagesRequest({
      max_tokens: 10,
      models: ['a/b', 'c/d'],
      provider: { order: ['x'] },
      session_id: 's1',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(chat).toMatchObject({ models: ['a/b', 'c/d'], provider: { order: ['x'] }, session_id: 's1' });
    expect(chat).not.toHaveProperty('model');
  });

  it.each([
    [undefined, 'xhigh', { effort: 'xhigh' }],
    [{ type: 'enabled', budget_tokens: 2048 }, 'low', { max_tokens: 2048, effort: 'low' }],
    [{ type: 'adaptive' }, 'max', { enabled: true, effort: 'max' }],
    [{ type: 'disabled' }, 'high', { enabled: false }],
    [undefined, null, undefined],
  ] as const)('maps thinking %j with output_config.effort %j to reasoning %j', (thinking, effort, reasoning) => {
    const chat = convertMessagesRequest({
      ...base,
      messages: [{ role: 'user', content: 'x' }],
      ...(thinking ? { thinking } : {}),
      output_config: { effort },
    });
    expect(chat.reasoning).toEqual(reasoning);
  });

  it('makes output_config.format a strict json_schema response_format, and a null format none', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const chat = convertMessagesRequest({
      ...base,
      messages: [{ role: 'user', content: 'x' }],
      output_config: { format: { type: 'json_schema', schema } },
    });
    expect(chat.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema, strict: true } });
    const none = convertMessagesRequest({ ...base, messages: [{ role: 'user', content: 'x' }], output_config: { format: null } });
    expect(none).not.toHaveProperty('response_format');
  });
});

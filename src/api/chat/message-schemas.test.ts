import { describe, expect, it } from 'vitest';
import { chatBodyMessage } from './chat-body-validation.testing.js';

const ROLES = '"system", "user", "developer", "assistant", "tool"';
const PART_TYPES = '"text", "image_url", "input_audio", "file"';
const toolCall = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

/** The validation message for a body holding this one message. */
const messageError = (message: unknown) => chatBodyMessage({ messages: [message] });

describe('messages', () => {
  const accepted: [string, unknown][] = [
    ['a system message', { role: 'system', content: 'Be brief.', name: 'policy' }],
    [
      'a system message of text parts with cache_control',
      { role: 'system', content: [{ type: 'text', text: 'Long context', cache_control: { type: 'ephemeral', ttl: '5m' } }] },
    ],
    ['a developer message', { role: 'developer', content: 'Answer in French.' }],
    ['a user message with a name', { role: 'user', content: 'Hi', name: 'alice' }],
    [
      'a text part with a null prompt_cache_breakpoint',
      { role: 'user', content: [{ type: 'text', text: 'Hi', prompt_cache_breakpoint: null }] },
    ],
    [
      'a text part with a prompt_cache_breakpoint',
      { role: 'user', content: [{ type: 'text', text: 'Hi', prompt_cache_breakpoint: { mode: 'explicit' } }] },
    ],
    [
      'a user message of every part type',
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'high' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          { type: 'file', file: { file_id: 'file-123' } },
        ],
      },
    ],
    ['an assistant message that only calls tools', { role: 'assistant', content: null, tool_calls: [toolCall] }],
    ['an assistant message without content', { role: 'assistant', tool_calls: [toolCall] }],
    ['an assistant message with reasoning and refusal', { role: 'assistant', content: 'No.', reasoning: 'Policy says no.', refusal: null }],
    ['an assistant message of text parts', { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] }],
    [
      'an assistant message carrying reasoning_details from a previous turn',
      { role: 'assistant', content: 'Hi', reasoning_details: [{ type: 'reasoning.text', text: '…' }] },
    ],
    ['a tool message', { role: 'tool', content: '{"temp":21}', tool_call_id: 'call_1' }],
    ['a tool message of text parts', { role: 'tool', content: [{ type: 'text', text: '21°C' }], tool_call_id: 'call_1' }],
  ];

  it.each(accepted)('accepts %s', (_, message) => {
    expect(messageError(message)).toBeNull();
  });

  const refused: [string, unknown, string][] = [
    ['a message that is not an object', 'Hello', 'messages[0] must be of type object'],
    ['a message without role', { content: 'Hi' }, 'messages[0].role is required'],
    ['an unknown role', { role: 'function', content: 'Hi' }, `messages[0].role must be one of ${ROLES}`],
    ['a user message without content', { role: 'user' }, 'messages[0].content is required'],
    ['a system message without content', { role: 'system' }, 'messages[0].content is required'],
    ['content that is a number', { role: 'user', content: 5 }, 'messages[0].content must be of type string or array'],
    ['a name that is not a string', { role: 'user', content: 'Hi', name: 5 }, 'messages[0].name must be of type string'],
    [
      'an unknown part type',
      { role: 'user', content: [{ type: 'video_url', video_url: { url: 'x' } }] },
      `messages[0].content[0].type must be one of ${PART_TYPES}`,
    ],
    ['a part without type', { role: 'user', content: [{ text: 'Hi' }] }, 'messages[0].content[0].type is required'],
    ['a text part without text', { role: 'user', content: [{ type: 'text' }] }, 'messages[0].content[0].text is required'],
    [
      'a text part with a bad cache_control',
      { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'forever' } }] },
      'messages[0].content[0].cache_control.type must be "ephemeral"',
    ],
    [
      'an image part without url',
      { role: 'user', content: [{ type: 'image_url', image_url: {} }] },
      'messages[0].content[0].image_url.url is required',
    ],
    [
      'an image part with an unknown detail',
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'x', detail: 'ultra' } }] },
      'messages[0].content[0].image_url.detail must be one of "auto", "low", "high"',
    ],
    [
      'an audio part without format',
      { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x' } }] },
      'messages[0].content[0].input_audio.format is required',
    ],
    ['a file part without file', { role: 'user', content: [{ type: 'file' }] }, 'messages[0].content[0].file is required'],
    [
      'an image part in a system message',
      { role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
      'messages[0].content[0].type must be one of "text"',
    ],
    [
      'an image part in a tool message',
      { role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
      'messages[0].content[0].type must be one of "text"',
    ],
    [
      'assistant content that is a number',
      { role: 'assistant', content: 5 },
      'messages[0].content must be of type string or array or null',
    ],
    [
      'a tool call without id',
      { role: 'assistant', tool_calls: [{ ...toolCall, id: undefined }] },
      'messages[0].tool_calls[0].id is required',
    ],
    [
      'a tool call of another type',
      { role: 'assistant', tool_calls: [{ ...toolCall, type: 'custom' }] },
      'messages[0].tool_calls[0].type must be one of "function"',
    ],
    [
      'tool call arguments as an object',
      { role: 'assistant', tool_calls: [{ ...toolCall, function: { name: 'f', arguments: {} } }] },
      'messages[0].tool_calls[0].function.arguments must be of type string',
    ],
    ['a tool message without tool_call_id', { role: 'tool', content: 'x' }, 'messages[0].tool_call_id is required'],
  ];

  it.each(refused)('refuses %s', (_, message, expected) => {
    expect(messageError(message)).toBe(expected);
  });

  it('names the index of the failing message', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'tool', content: 'x' },
    ];
    expect(chatBodyMessage({ messages })).toBe('messages[2].tool_call_id is required');
  });
});

describe('tools and tool_choice', () => {
  const weatherTool = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather by city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    },
  };

  it.each([
    ['a function tool', { tools: [weatherTool] }],
    ['a function tool with cache_control', { tools: [{ ...weatherTool, cache_control: { type: 'ephemeral' } }] }],
    ['tool_choice none', { tool_choice: 'none' }],
    ['tool_choice auto', { tool_choice: 'auto' }],
    ['tool_choice required', { tool_choice: 'required' }],
    ['a named tool_choice', { tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } }],
  ])('accepts %s', (_, fields) => {
    expect(chatBodyMessage(fields)).toBeNull();
  });

  it.each([
    ['a tool without function', { tools: [{ type: 'function' }] }, 'tools[0].function is required'],
    ['a tool without a name', { tools: [{ type: 'function', function: {} }] }, 'tools[0].function.name is required'],
    [
      'a tool name of 65 characters',
      { tools: [{ type: 'function', function: { name: 'f'.repeat(65) } }] },
      'tools[0].function.name must be at most 64 characters long',
    ],
    [
      'parameters that are not an object',
      { tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] },
      'tools[0].function.parameters must be of type object',
    ],
    [
      'strict as a string',
      { tools: [{ type: 'function', function: { name: 'f', strict: 'yes' } }] },
      'tools[0].function.strict must be of type boolean or null',
    ],
    [
      'a tool of another type',
      { tools: [{ type: 'web_search' }] },
      'tools[0].type must be one of "function", "service:web_search", "service:web_fetch", "service:fusion", "service:code_interpreter"',
    ],
    ['an unknown tool_choice', { tool_choice: 'any' }, 'tool_choice must be one of "none", "auto", "required"'],
    ['tool_choice as a number', { tool_choice: 1 }, 'tool_choice must be of type string or object'],
    ['a named tool_choice without function', { tool_choice: { type: 'function' } }, 'tool_choice.function is required'],
    ['a named tool_choice without a name', { tool_choice: { type: 'function', function: {} } }, 'tool_choice.function.name is required'],
    [
      'a tool_choice object of another type',
      { tool_choice: { type: 'tool', function: { name: 'f' } } },
      'tool_choice.type must be one of "function"',
    ],
  ])('refuses %s', (_, fields, message) => {
    expect(chatBodyMessage(fields)).toBe(message);
  });
});

describe('response_format', () => {
  it.each([
    ['text', { type: 'text' }],
    ['json_object', { type: 'json_object' }],
    ['json_schema', { type: 'json_schema', json_schema: { name: 'answer', description: 'd', schema: { type: 'object' }, strict: true } }],
    ['grammar', { type: 'grammar', grammar: 'root ::= "yes" | "no"' }],
    ['python', { type: 'python' }],
  ])('accepts %s', (_, responseFormat) => {
    expect(chatBodyMessage({ response_format: responseFormat })).toBeNull();
  });

  it.each([
    [{}, 'response_format.type is required'],
    [{ type: 'xml' }, 'response_format.type must be one of "text", "json_object", "json_schema", "grammar", "python"'],
    [{ type: 'json_schema' }, 'response_format.json_schema is required'],
    [{ type: 'json_schema', json_schema: { schema: {} } }, 'response_format.json_schema.name is required'],
    [{ type: 'json_schema', json_schema: { name: 'n'.repeat(65) } }, 'response_format.json_schema.name must be at most 64 characters long'],
    [{ type: 'grammar' }, 'response_format.grammar is required'],
  ])('refuses %j', (responseFormat, message) => {
    expect(chatBodyMessage({ response_format: responseFormat })).toBe(message);
  });
});

describe('stop_server_tools_when', () => {
  it.each([
    { type: 'step_count_is', step_count: 5 },
    { type: 'has_tool_call', tool_name: 'finish' },
    { type: 'max_tokens_used', max_tokens: 10000 },
    { type: 'max_cost', max_cost_in_dollars: 0.5 },
    { type: 'finish_reason_is', reason: 'stop' },
  ])('accepts %j', (condition) => {
    expect(chatBodyMessage({ stop_server_tools_when: [condition] })).toBeNull();
  });

  it.each([
    [
      { type: 'never' },
      'stop_server_tools_when[0].type must be one of "step_count_is", "has_tool_call", "max_tokens_used", "max_cost", "finish_reason_is"',
    ],
    [{ type: 'step_count_is' }, 'stop_server_tools_when[0].step_count is required'],
    [{ type: 'step_count_is', step_count: 1.5 }, 'stop_server_tools_when[0].step_count must be of type integer'],
    [{ type: 'has_tool_call', tool_name: '' }, 'stop_server_tools_when[0].tool_name must be at least 1 character long'],
    [{ type: 'max_cost', max_cost_in_dollars: '1' }, 'stop_server_tools_when[0].max_cost_in_dollars must be of type number'],
  ])('refuses %j', (condition, message) => {
    expect(chatBodyMessage({ stop_server_tools_when: [condition] })).toBe(message);
  });

  it('takes a list of conditions, as the SDK sends them', () => {
    expect(chatBodyMessage({ stop_server_tools_when: { type: 'step_count_is', step_count: 5 } })).toBe(
      'stop_server_tools_when must be of type array',
    );
    expect(chatBodyMessage({ stop_server_tools_when: [] })).toBe('stop_server_tools_when must have at least 1 item');
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { convertToGeminiRequest } from './convert-to-gemini-request.js';

const target: UpstreamTarget = {
  providerId: 'google',
  kind: 'gemini',
  baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  apiKey: 'g-key',
  upstreamModel: 'gemini-2.5-flash',
  timeoutMs: 60_000,
};
const messages: ChatRequest['messages'] = [{ role: 'user', content: 'What is the weather in Paris?' }];
const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { anyOf: [{ type: 'string', enum: ['C', 'F'] }, { type: 'null' }] } },
      required: ['city'],
      additionalProperties: false,
    },
    strict: true,
  },
};

describe('convertToGeminiRequest', () => {
  it('sends only contents for a bare request: no generationConfig, no user, none of the gateway fields', () => {
    const body = convertToGeminiRequest(
      { messages, model: 'google/gemini-2.5-flash', user: 'alice@example.com', session_id: 's', provider: { sort: 'price' }, stream: true },
      target,
    );
    expect(body).toStrictEqual({ contents: [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }] });
  });

  it('maps the sampling parameters into generationConfig', () => {
    const body = convertToGeminiRequest(
      {
        messages,
        temperature: 0.2,
        top_p: 0.9,
        top_k: 40,
        max_tokens: 100,
        max_completion_tokens: 200,
        stop: 'END',
        seed: 7,
        presence_penalty: 0.5,
        frequency_penalty: 0.25,
        logit_bias: { '42': 1 },
        logprobs: true,
        parallel_tool_calls: false,
        service_tier: 'flex',
      },
      target,
    );
    expect(body.generationConfig).toStrictEqual({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      maxOutputTokens: 200,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
    });
  });

  it('treats null as unset, and keeps a list of stop sequences', () => {
    const body = convertToGeminiRequest(
      { messages, temperature: null, max_tokens: null, max_completion_tokens: null, stop: ['a', 'b'] },
      target,
    );
    expect(body.generationConfig).toStrictEqual({ stopSequences: ['a', 'b'] });
  });

  it('sends only the parameters an endpoint lists', () => {
    const listing = { ...target, supportedParameters: ['max_tokens', 'temperature', 'reasoning'] };
    const body = convertToGeminiRequest(
      {
        messages,
        temperature: 1,
        top_k: 3,
        max_tokens: 50,
        tools: [weatherTool],
        response_format: { type: 'json_object' },
        reasoning: { effort: 'low' },
      },
      listing,
    );
    expect(body).toStrictEqual({
      contents: body.contents,
      generationConfig: { temperature: 1, maxOutputTokens: 50, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    });
  });

  it('declares tools with their JSON Schema as parametersJsonSchema, unchanged', () => {
    const body = convertToGeminiRequest({ messages, tools: [weatherTool, { type: 'function', function: { name: 'now' } }] }, target);
    expect(body.tools).toStrictEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Current weather', parametersJsonSchema: weatherTool.function.parameters },
          { name: 'now' },
        ],
      },
    ]);
    expect(body).not.toHaveProperty('toolConfig');
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [
      { type: 'function', function: { name: 'get_weather' } },
      { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    ],
  ] as const)('maps tool_choice %j to functionCallingConfig %j', (toolChoice, config) => {
    const body = convertToGeminiRequest({ messages, tools: [weatherTool], tool_choice: toolChoice }, target);
    expect(body.toolConfig).toStrictEqual({ functionCallingConfig: config });
  });

  it('sends no toolConfig without tools', () => {
    expect(convertToGeminiRequest({ messages, tool_choice: 'none' }, target)).not.toHaveProperty('toolConfig');
  });

  it('maps response_format json_schema to JSON output with the schema as responseJsonSchema', () => {
    const schema = { type: 'object', properties: { answer: { type: ['string', 'null'] } }, $defs: { unused: { type: 'string' } } };
    const body = convertToGeminiRequest(
      { messages, response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } } },
      target,
    );
    expect(body.generationConfig).toStrictEqual({ responseMimeType: 'application/json', responseJsonSchema: schema });
  });

  it('maps json_object, and json_schema without a schema, to JSON output alone; ignores the other formats', () => {
    expect(convertToGeminiRequest({ messages, response_format: { type: 'json_object' } }, target).generationConfig).toStrictEqual({
      responseMimeType: 'application/json',
    });
    expect(
      convertToGeminiRequest({ messages, response_format: { type: 'json_schema', json_schema: { name: 'x' } } }, target).generationConfig,
    ).toStrictEqual({ responseMimeType: 'application/json' });
    expect(convertToGeminiRequest({ messages, response_format: { type: 'text' } }, target)).not.toHaveProperty('generationConfig');
    expect(convertToGeminiRequest({ messages, response_format: { type: 'grammar', grammar: 'x' } }, target)).not.toHaveProperty(
      'generationConfig',
    );
  });

  it('puts the thinking config in generationConfig: a level for Gemini 3, a budget for older models', () => {
    const request: ChatRequest = { messages, reasoning: { effort: 'medium' } };
    expect(convertToGeminiRequest(request, { ...target, upstreamModel: 'gemini-3-flash-preview' }).generationConfig).toStrictEqual({
      thinkingConfig: { thinkingLevel: 'medium', includeThoughts: true },
    });
    expect(convertToGeminiRequest(request, target).generationConfig).toStrictEqual({
      thinkingConfig: { thinkingBudget: 8192, includeThoughts: true },
    });
  });

  it('signs replayed function calls for Gemini 3 only', () => {
    const request: ChatRequest = {
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"temperature":21}' },
      ],
      tools: [weatherTool],
    };
    const signed = convertToGeminiRequest(request, { ...target, upstreamModel: 'gemini-3-pro-preview' });
    expect(signed.contents[1]?.parts[0]?.thoughtSignature).toBe('skip_thought_signature_validator');
    expect(convertToGeminiRequest(request, target).contents[1]?.parts[0]).not.toHaveProperty('thoughtSignature');
  });

  it('adds Google Search grounding for native web search', () => {
    const body = convertToGeminiRequest({ messages, tools: [weatherTool], web_search_options: { max_uses: 2 } }, target);
    expect(body.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: 'get_weather' })] }, { googleSearch: {} }]);
    expect(convertToGeminiRequest({ messages }, target).tools).toBeUndefined();
  });
});

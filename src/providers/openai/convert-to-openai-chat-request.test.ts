import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-request.js';

const target: UpstreamTarget = {
  providerId: 'openai',
  kind: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  apiKey: 'sk-test',
  upstreamModel: 'gpt-4.1-nano',
  timeoutMs: 30_000,
};

const messages: ChatRequest['messages'] = [{ role: 'user', content: 'Hi' }];
const convert = (request: Partial<ChatRequest>, overrides: Partial<UpstreamTarget> = {}, stream = false, endUserId?: string) =>
  convertToOpenAIChatRequest({ messages, ...request }, { ...target, ...overrides }, { stream, endUserId });

describe('convertToOpenAIChatRequest', () => {
  it('sends the upstream model id and the messages', () => {
    expect(convert({ model: 'openai/gpt-4.1-nano' })).toStrictEqual({ model: 'gpt-4.1-nano', messages });
  });

  it('copies the OpenAI parameters', () => {
    const parameters = {
      temperature: 0.2,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      logit_bias: { '50256': -100 },
      logprobs: true,
      top_logprobs: 3,
      seed: 7,
      stop: ['END'],
      tools: [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object' } } }],
      tool_choice: 'required' as const,
      parallel_tool_calls: false,
      response_format: { type: 'json_object' as const },
      prediction: { type: 'content' as const, content: 'draft' },
      prompt_cache_key: 'conversation-1',
    };
    expect(convert(parameters)).toStrictEqual({ model: 'gpt-4.1-nano', messages, ...parameters });
  });

  it('leaves out null parameters (the upstream default)', () => {
    expect(convert({ temperature: null, seed: null, service_tier: null, reasoning_effort: null })).toStrictEqual({
      model: 'gpt-4.1-nano',
      messages,
    });
  });

  it('drops the parameters the endpoint does not list, but never model and messages', () => {
    const body = convert({ temperature: 0.5, seed: 1, tools: [], logprobs: true }, { supportedParameters: ['temperature'] });
    expect(body).toStrictEqual({ model: 'gpt-4.1-nano', messages, temperature: 0.5 });
  });

  it('sends sampling extensions, metadata and modalities only to endpoints that list them', () => {
    const request = { top_k: 40, min_p: 0.05, repetition_penalty: 1.1, top_a: 0.1, metadata: { team: 'a' }, modalities: ['text' as const] };
    expect(convert(request)).toStrictEqual({ model: 'gpt-4.1-nano', messages });
    expect(convert(request, { supportedParameters: ['top_k', 'min_p', 'metadata'] })).toStrictEqual({
      model: 'gpt-4.1-nano',
      messages,
      top_k: 40,
      min_p: 0.05,
      metadata: { team: 'a' },
    });
  });

  it('never sends the gateway-only fields', () => {
    const body = convert({
      model: 'openai/gpt-4.1-nano',
      models: ['a', 'b'],
      provider: { order: ['openai'] },
      plugins: [{ id: 'web' }],
      session_id: 's',
      debug: { echo_upstream_body: true },
      trace: { id: 't' },
      route: 'fallback',
      stop_server_tools_when: [{ x: 1 }],
      cache_control: { type: 'ephemeral' },
      image_config: { aspect_ratio: '1:1' },
      user: 'alice@example.com',
      stream: true,
      stream_options: { include_usage: false },
    });
    expect(body).toStrictEqual({ model: 'gpt-4.1-nano', messages });
  });

  it('sends the hashed end user as user and safety_identifier, never the raw user', () => {
    const body = convert({ user: 'alice@example.com' }, {}, false, 'hashed-id');
    expect(body).toMatchObject({ user: 'hashed-id', safety_identifier: 'hashed-id' });
    expect(JSON.stringify(body)).not.toContain('alice');
    expect(convert({ user: 'alice@example.com' }, { supportedParameters: ['user'] }, false, 'hashed-id')).not.toHaveProperty(
      'safety_identifier',
    );
  });

  it('adds no end-user field when the client named no end user', () => {
    const body = convert({}, {}, false, 'hashed-key-identity');
    expect(body).not.toHaveProperty('user');
    expect(body).not.toHaveProperty('safety_identifier');
  });

  it('always asks for usage when streaming', () => {
    expect(convert({ stream_options: { include_usage: false } }, {}, true)).toStrictEqual({
      model: 'gpt-4.1-nano',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(convert({}, { supportedParameters: [] }, true)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('sends max_completion_tokens, falling back from max_tokens', () => {
    expect(convert({ max_tokens: 100 })).toMatchObject({ max_completion_tokens: 100 });
    expect(convert({ max_tokens: 100, max_completion_tokens: 50 })).toMatchObject({ max_completion_tokens: 50 });
    expect(convert({ max_tokens: 100 })).not.toHaveProperty('max_tokens');
  });

  it('sends max_tokens to an endpoint that lists only max_tokens', () => {
    const body = convert({ max_completion_tokens: 50 }, { supportedParameters: ['max_tokens'] });
    expect(body).toStrictEqual({ model: 'gpt-4.1-nano', messages, max_tokens: 50 });
    expect(convert({ max_completion_tokens: 50 }, { supportedParameters: ['temperature'] })).not.toHaveProperty('max_tokens');
  });

  it('sends a service tier only to an endpoint that offers it, fast as priority', () => {
    const tiers = { supportedServiceTiers: ['auto', 'default', 'flex', 'priority'] as const };
    expect(convert({ service_tier: 'fast' }, tiers)).toMatchObject({ service_tier: 'priority' });
    expect(convert({ service_tier: 'flex' }, tiers)).toMatchObject({ service_tier: 'flex' });
    expect(convert({ service_tier: 'scale' }, tiers)).not.toHaveProperty('service_tier');
    expect(convert({ service_tier: 'flex' })).not.toHaveProperty('service_tier');
  });

  it('sends the reasoning effort as reasoning_effort, unchanged', () => {
    for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const) {
      expect(convert({ reasoning: { effort } })).toMatchObject({ reasoning_effort: effort });
    }
    expect(convert({ reasoning_effort: 'low' })).toMatchObject({ reasoning_effort: 'low' });
    expect(convert({ reasoning: { enabled: false } })).toMatchObject({ reasoning_effort: 'none' });
    expect(convert({ reasoning: { summary: 'auto', max_tokens: 1000 } })).toStrictEqual({ model: 'gpt-4.1-nano', messages });
  });

  it("accepts the catalog name 'reasoning' for reasoning_effort, and drops it when unlisted", () => {
    expect(convert({ reasoning_effort: 'high' }, { supportedParameters: ['reasoning'] })).toMatchObject({ reasoning_effort: 'high' });
    expect(convert({ reasoning_effort: 'high' }, { supportedParameters: ['temperature'] })).not.toHaveProperty('reasoning_effort');
  });

  it('strips reasoning and model from assistant messages and cache_control from text parts', () => {
    const body = convert({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look', cache_control: { type: 'ephemeral', ttl: '1h' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          reasoning: 'thinking…',
          model: 'openai/gpt-4o',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    });
    expect(body.messages).toStrictEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
  });

  it('sends native web search as OpenAI’s web_search_options, location nested, without what OpenAI has no field for', () => {
    const request: ChatRequest = {
      messages: [{ role: 'user', content: 'news?' }],
      web_search_options: {
        search_context_size: 'high',
        user_location: { type: 'approximate', city: 'Paris', country: 'FR', region: null },
        max_uses: 3,
        allowed_domains: ['a.example'],
      },
    };
    expect(convert(request).web_search_options).toEqual({
      search_context_size: 'high',
      user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR' } },
    });
    expect(convert({ ...request, web_search_options: {} }).web_search_options).toEqual({});
    expect(convert(request, { supportedParameters: ['tools'] })).not.toHaveProperty('web_search_options');
  });

  it('does not change the request it reads', () => {
    const request: ChatRequest = {
      messages: [{ role: 'assistant', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }], reasoning: 'r' }],
    };
    const before = structuredClone(request);
    convertToOpenAIChatRequest(request, target, { stream: false });
    expect(request).toStrictEqual(before);
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatRequest, FunctionTool } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { convertToAnthropicMessagesRequest, DEFAULT_MAX_TOKENS } from './convert-to-anthropic-messages-request.js';

const target: UpstreamTarget = {
  providerId: 'anthropic',
  kind: 'anthropic',
  baseUrl: 'https://api.anthropic.com/v1',
  upstreamModel: 'claude-sonnet-4-5-20250929',
  maxCompletionTokens: 64_000,
  timeoutMs: 60_000,
};
const weather: FunctionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const hello: ChatRequest = { model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'Hello' }] };
const build = (
  request: Partial<ChatRequest>,
  over: Partial<UpstreamTarget> = {},
  options: { stream: boolean; endUserId?: string } = { stream: false },
) => convertToAnthropicMessagesRequest({ ...hello, ...request }, { ...target, ...over }, options);

describe('convertToAnthropicMessagesRequest', () => {
  it('builds a whole Messages body: system, content blocks, tools, stop, the end user, stream', () => {
    const body = build(
      {
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'developer', content: 'Use metric units.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is the weather where this photo was taken?' },
              { type: 'image_url', image_url: { url: 'https://example.com/street.jpg' } },
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: '4°C, snow' },
        ],
        tools: [weather],
        tool_choice: 'auto',
        stop: ['\n\nHuman:', 'END'],
        temperature: 0.2,
        user: 'alice@example.com',
        metadata: { team: 'a' },
        seed: 7,
        frequency_penalty: 1,
      },
      {},
      { stream: true, endUserId: 'hashed-alice' },
    );
    expect(body).toStrictEqual({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 64_000,
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Use metric units.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is the weather where this photo was taken?' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/street.jpg' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4°C, snow' }] },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      tool_choice: { type: 'auto' },
      temperature: 0.2,
      stop_sequences: ['\n\nHuman:', 'END'],
      metadata: { user_id: 'hashed-alice' },
      stream: true,
    });
    expect(JSON.stringify(body)).not.toContain('alice@example.com');
  });

  it('sends a single stop string as a one-item stop_sequences, and no system without system messages', () => {
    const body = build({ stop: 'END' });
    expect(body.stop_sequences).toEqual(['END']);
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('stream');
    expect(body).not.toHaveProperty('metadata');
  });

  it('adds no metadata.user_id when the client named no end user', () => {
    expect(build({}, {}, { stream: false, endUserId: 'hashed-key-identity' })).not.toHaveProperty('metadata');
  });

  describe('max_tokens, which Anthropic requires', () => {
    it('takes max_completion_tokens first', () => {
      expect(build({ max_completion_tokens: 300, max_tokens: 200 }).max_tokens).toBe(300);
    });
    it('then max_tokens', () => {
      expect(build({ max_tokens: 200 }).max_tokens).toBe(200);
    });
    it("then the endpoint's limit", () => {
      expect(build({}).max_tokens).toBe(64_000);
    });
    it('then a default when the catalog knows no limit', () => {
      expect(build({}, { maxCompletionTokens: undefined }).max_tokens).toBe(DEFAULT_MAX_TOKENS);
    });
  });

  describe('tool_choice', () => {
    it.each([
      ['none', { type: 'none' }],
      ['required', { type: 'any' }],
      [
        { type: 'function', function: { name: 'get_weather' } },
        { type: 'tool', name: 'get_weather' },
      ],
    ] as const)('maps %j to %j', (choice, expected) => {
      expect(build({ tools: [weather], tool_choice: choice }).tool_choice).toEqual(expected);
    });
    it('adds disable_parallel_tool_use for parallel_tool_calls: false', () => {
      expect(build({ tools: [weather], parallel_tool_calls: false }).tool_choice).toEqual({
        type: 'auto',
        disable_parallel_tool_use: true,
      });
    });
  });

  describe('extended thinking', () => {
    it.each([
      ['low', 2_000],
      ['medium', 5_000],
      ['high', 8_000],
    ] as const)('gives effort %s a budget of %i out of max_tokens 10000', (effort, budget) => {
      expect(build({ max_completion_tokens: 10_000, reasoning: { effort } }).thinking).toEqual({ type: 'enabled', budget_tokens: budget });
    });

    it("shares the endpoint's limit when the request sets none", () => {
      expect(build({ reasoning_effort: 'medium' }).thinking).toEqual({ type: 'enabled', budget_tokens: 32_000 });
    });

    it('leaves out temperature and top_k, and a top_p below 0.95, while thinking', () => {
      const body = build({ reasoning: { effort: 'low' }, temperature: 0.5, top_k: 40, top_p: 0.9 });
      expect(body.thinking).toBeDefined();
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_k');
      expect(body).not.toHaveProperty('top_p');
      expect(build({ reasoning: { effort: 'low' }, top_p: 0.97 }).top_p).toBe(0.97);
    });

    it('does not think when the tool choice forces a tool, which Anthropic refuses together', () => {
      const body = build({ reasoning: { effort: 'high' }, tools: [weather], tool_choice: 'required' });
      expect(body).not.toHaveProperty('thinking');
      expect(body.tool_choice).toEqual({ type: 'any' });
    });

    it('does not think in a tool loop, whose assistant turn Anthropic wants to start with a signed thinking block', () => {
      const loop: Partial<ChatRequest> = {
        reasoning: { effort: 'high' },
        tools: [weather],
        messages: [
          { role: 'user', content: 'Weather in Oslo?' },
          { role: 'assistant', tool_calls: [{ id: 't', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 't', content: 'Snow' },
        ],
      };
      expect(build(loop)).not.toHaveProperty('thinking');
      const answered = {
        ...loop,
        messages: [
          ...(loop.messages ?? []),
          { role: 'assistant' as const, content: 'Snow.' },
          { role: 'user' as const, content: 'Thanks' },
        ],
      };
      expect(build(answered).thinking).toBeDefined();
    });

    it('does not think on an endpoint that does not list reasoning', () => {
      expect(build({ reasoning: { effort: 'high' } }, { supportedParameters: ['max_tokens', 'temperature'] })).not.toHaveProperty(
        'thinking',
      );
    });
  });

  describe('sampling', () => {
    it("caps temperature at Anthropic's 1 and passes top_p and top_k", () => {
      expect(build({ temperature: 1.7, top_p: 0.8, top_k: 20 })).toMatchObject({ temperature: 1, top_p: 0.8, top_k: 20 });
    });
    it('sends only what the endpoint lists', () => {
      const body = build(
        { temperature: 0.3, top_k: 20, stop: 'END', tools: [weather] },
        { supportedParameters: ['max_tokens', 'temperature'] },
      );
      expect(body.temperature).toBe(0.3);
      expect(body).not.toHaveProperty('top_k');
      expect(body).not.toHaveProperty('stop_sequences');
      expect(body).not.toHaveProperty('tools');
    });
  });

  describe('prompt caching', () => {
    it('passes cache_control on content blocks through', () => {
      const body = build({
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Policy…', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Book…', cache_control: { type: 'ephemeral' } },
              { type: 'text', text: 'Summarize it.' },
            ],
          },
        ],
      });
      expect(body.system).toEqual([{ type: 'text', text: 'Policy…', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
      expect(body.messages[0]?.content).toEqual([
        { type: 'text', text: 'Book…', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Summarize it.' },
      ]);
    });

    it('places a top-level cache_control as a breakpoint on the last block of the prompt', () => {
      const body = build({
        cache_control: { type: 'ephemeral', ttl: '5m' },
        messages: [
          { role: 'system', content: 'Policy…' },
          { role: 'user', content: 'First question' },
          { role: 'assistant', content: 'An answer' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Next' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            ],
          },
        ],
      });
      expect(body.messages.at(-1)?.content).toEqual([
        { type: 'text', text: 'Next' },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' }, cache_control: { type: 'ephemeral', ttl: '5m' } },
      ]);
      expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(1);
    });

    it('puts the top-level breakpoint on a tool result when the prompt ends with one, and keeps an explicit one', () => {
      const toolTurn: Partial<ChatRequest> = {
        cache_control: { type: 'ephemeral' },
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', tool_calls: [{ id: 't', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 't', content: 'Sunny' },
        ],
      };
      expect(build(toolTurn).messages.at(-1)?.content.at(-1)).toEqual({
        type: 'tool_result',
        tool_use_id: 't',
        content: 'Sunny',
        cache_control: { type: 'ephemeral' },
      });
      const explicit = build({
        cache_control: { type: 'ephemeral' },
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
      });
      expect(explicit.messages[0]?.content[0]).toEqual({ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } });
    });

    it('leaves the request it was given unchanged', () => {
      const request: ChatRequest = {
        cache_control: { type: 'ephemeral' },
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      };
      const before = structuredClone(request);
      convertToAnthropicMessagesRequest(request, target, { stream: false });
      expect(request).toEqual(before);
    });
  });

  it('asks for Priority Tier capacity with service_tier "auto" where the endpoint offers it', () => {
    const tiers = { supportedServiceTiers: ['auto', 'default', 'priority'] as const };
    expect(build({ service_tier: 'priority' }, tiers)).toMatchObject({ service_tier: 'auto' });
    expect(build({ service_tier: 'default' }, tiers)).toMatchObject({ service_tier: 'standard_only' });
    expect(build({ service_tier: 'priority' })).not.toHaveProperty('service_tier');
  });
});

describe('native web search', () => {
  it('adds Anthropic’s web_search server tool after the client’s tools, with max_uses, domains and location', () => {
    const body = convertToAnthropicMessagesRequest(
      {
        messages: [{ role: 'user', content: 'news?' }],
        web_search_options: {
          max_uses: 2,
          allowed_domains: ['example.com'],
          user_location: { type: 'approximate', city: 'Paris', country: 'FR', timezone: null },
        },
      },
      target,
      { stream: false },
    );
    expect(body.tools).toEqual([
      {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: 2,
        allowed_domains: ['example.com'],
        user_location: { type: 'approximate', city: 'Paris', country: 'FR' },
      },
    ]);
  });
});

describe('a JSON response_format', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const format = { type: 'json_schema' as const, json_schema: { name: 'place', schema, strict: true } };

  it('is structured outputs where the endpoint takes them, thinking as asked', () => {
    const body = build({ response_format: format, reasoning: { effort: 'high' }, max_tokens: 4000 });
    expect(body.output_config).toStrictEqual({
      format: { type: 'json_schema', schema: { ...schema, additionalProperties: false } },
    });
    expect(body.tools).toBeUndefined();
    expect(body.thinking).toStrictEqual({ type: 'enabled', budget_tokens: 3200 });
  });

  it('is the forced JSON tool where the endpoint lists response_format alone, without thinking (Anthropic refuses both)', () => {
    const body = build(
      { response_format: format, reasoning: { effort: 'high' }, max_tokens: 4000 },
      { supportedParameters: ['max_tokens', 'tools', 'reasoning', 'response_format'] },
    );
    expect(body.output_config).toBeUndefined();
    expect(body.tools).toStrictEqual([{ name: 'json_output', description: expect.any(String), input_schema: schema }]);
    expect(body.tool_choice).toStrictEqual({ type: 'tool', name: 'json_output' });
    expect(body.thinking).toBeUndefined();
  });

  it("offers the client's tools beside the JSON tool, one of them to be called", () => {
    const body = build({ response_format: format, tools: [weather] }, { supportedParameters: ['tools', 'tool_choice', 'response_format'] });
    expect(body.tools?.map((tool) => tool.name)).toStrictEqual(['get_weather', 'json_output']);
    expect(body.tool_choice).toStrictEqual({ type: 'any' });
  });

  it('is not sent where the endpoint lists neither response_format nor structured_outputs', () => {
    const body = build({ response_format: format }, { supportedParameters: ['max_tokens'] });
    expect(body.output_config).toBeUndefined();
    expect(body.tools).toBeUndefined();
  });
});

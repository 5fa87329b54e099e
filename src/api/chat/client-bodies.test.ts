import { OpenRouter } from '@openrouter/sdk';
import { HTTPClient } from '@openrouter/sdk/lib/http.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { validationMessage } from './chat-body-validation.testing.js';
import { checkChatRequest } from './check-chat-request.js';
import { normalizeChatRequest } from './normalize-chat-request.js';
import { ChatRequestBody } from './schemas.js';

/*
 * The bodies real clients put on the wire, captured from their fetch, must
 * pass the schema and the code checks: the SDK converts camelCase to
 * snake_case and adds fields of its own (stream: false).
 */

const BASE_URL = 'http://gateway.test/api/v1';

const COMPLETION = {
  id: 'gen-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'openai/gpt-4o',
  system_fingerprint: null,
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

/** A fetch that records the JSON body sent and answers with a completion. */
function capturingFetch() {
  const sent: unknown[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push(JSON.parse(await request.text()));
    return new Response(JSON.stringify(COMPLETION), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, sent };
}

function expectAccepted(body: unknown): void {
  expect(validationMessage(ChatRequestBody, body)).toBeNull();
  const valid = body as ChatRequestBody;
  expect(() => checkChatRequest(valid)).not.toThrow();
  expect(normalizeChatRequest(valid).messages).toEqual(valid.messages);
}

const weatherParameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('bodies sent by the openai client', () => {
  const { fetch, sent } = capturingFetch();
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: BASE_URL, fetch, maxRetries: 0 });

  it('a tool-calling conversation with structured output', async () => {
    await client.chat.completions.create({
      model: 'openai/gpt-4o',
      messages: [
        { role: 'developer', content: 'Answer briefly.' },
        { role: 'system', content: [{ type: 'text', text: 'You are a weather bot.' }] },
        {
          role: 'user',
          name: 'alice',
          content: [
            { type: 'text', text: 'Weather where this photo was taken?' },
            { type: 'image_url', image_url: { url: 'https://example.com/paris.jpg', detail: 'low' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { filename: 'notes.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather by city', parameters: weatherParameters, strict: true },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: weatherParameters, strict: true } },
      max_completion_tokens: 512,
      temperature: 0.3,
      top_p: 0.9,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      logit_bias: { '50256': -100 },
      logprobs: true,
      top_logprobs: 5,
      seed: 7,
      stop: ['\n\n', 'END'],
      reasoning_effort: 'low',
      service_tier: 'flex',
      metadata: { conversation: 'c-42' },
      user: 'user-123',
      prompt_cache_key: 'weather-bot',
      store: false,
      n: 1,
    });
    expectAccepted(sent.at(-1));
  });

  it('a streamed request with the deprecated max_tokens', async () => {
    await client.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'Count to three.' }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
      modalities: ['text'],
      prediction: { type: 'content', content: 'One, two, three.' },
    });
    expectAccepted(sent.at(-1));
  });
});

describe('bodies sent by @openrouter/sdk', () => {
  const { fetch, sent } = capturingFetch();
  const client = new OpenRouter({ apiKey: 'sk-or-test', serverURL: BASE_URL, httpClient: new HTTPClient({ fetcher: fetch }) });

  it('a request using routing, plugins and provider preferences', async () => {
    await client.chat.send({
      chatRequest: {
        models: ['anthropic/claude-sonnet-4', 'openai/gpt-4o'],
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Long shared context', cacheControl: { type: 'ephemeral', ttl: '1h' } }] },
          { role: 'user', content: [{ type: 'image_url', imageUrl: { url: 'https://example.com/a.png' } }] },
          {
            role: 'assistant',
            content: 'Calling a tool.',
            toolCalls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
          },
          { role: 'tool', toolCallId: 'call_9', content: 'result' },
        ],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
        toolChoice: 'auto',
        plugins: [
          {
            id: 'auto-router',
            allowedModels: ['anthropic/*'],
            excludedModels: ['anthropic/claude-2*'],
            costTier: 'medium',
            pinModel: true,
          },
          { id: 'auto-beta-router', costQualityTradeoff: 9 },
          { id: 'fusion', analysisModels: ['openai/gpt-4o', 'google/gemini-2.5-pro'], maxToolCalls: 4, preset: 'general-high' },
          { id: 'web', maxResults: 3, engine: 'exa' },
          { id: 'web-fetch', maxUses: 2, allowedDomains: ['docs.example'] },
          { id: 'file-parser', pdf: { engine: 'pdf-text' } },
          { id: 'context-compression', engine: 'middle-out' },
          { id: 'pareto-router', minCodingScore: 0.7, priceSource: 'prompt' },
          { id: 'response-healing' },
          { id: 'moderation' },
          { id: 'switchyard-router', algorithm: 'stage' },
        ],
        provider: {
          allowFallbacks: false,
          requireParameters: true,
          dataCollection: 'deny',
          zdr: true,
          order: ['Anthropic', 'OpenAI'],
          ignore: ['Azure'],
          quantizations: ['fp8'],
          sort: { by: 'throughput', partition: 'model' },
          maxPrice: { prompt: '3', completion: '15' },
          preferredMaxLatency: { p90: 3 },
          preferredMinThroughput: 40,
        },
        reasoning: { effort: 'high', summary: 'detailed' },
        responseFormat: { type: 'json_object' },
        maxCompletionTokens: 1024,
        sessionId: 'session-7',
        serviceTier: 'fast',
        cacheControl: { type: 'ephemeral' },
        promptCacheOptions: { mode: 'explicit', ttl: '5m' },
        imageConfig: { aspect_ratio: '1:1' },
        debug: { echoUpstreamBody: false },
        trace: { traceId: 'trace-1', spanName: 'chat' },
        user: 'user-9',
      },
    });
    const body = sent.at(-1);
    expect(body).toMatchObject({ stream: false, session_id: 'session-7', provider: { allow_fallbacks: false } });
    expectAccepted(body);
  });

  it('a minimal request with the deprecated max_tokens', async () => {
    await client.chat.send({
      chatRequest: { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'Hi' }], maxTokens: 16, reasoningEffort: 'none' },
    });
    expectAccepted(sent.at(-1));
  });
});

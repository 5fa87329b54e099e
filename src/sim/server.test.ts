import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from './server.js';
import { postChat, readJson, readSimStats, readSseData } from './test-support.testing.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => fetch(`${sim.url}/__sim/reset`, { method: 'POST' }));

const hello = { model: 'sim-model', messages: [{ role: 'user', content: 'Hello there' }] };
const weather = {
  model: 'sim-model',
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ],
};
const usageShape = {
  prompt_tokens: expect.any(Number),
  completion_tokens: expect.any(Number),
  total_tokens: expect.any(Number),
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};
const chunkEnvelope = {
  id: expect.stringMatching(/^chatcmpl-/),
  object: 'chat.completion.chunk',
  created: expect.any(Number),
  model: 'sim-model',
  service_tier: 'default',
  system_fingerprint: 'fp_sim',
};

describe('POST /v1/chat/completions, non-streaming', () => {
  it('answers a chat.completion in OpenAI shape', async () => {
    const response = await postChat(sim.url, hello);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await readJson(response)).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'sim-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'This is a simulated reply. You said: Hello there', refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { ...usageShape, prompt_tokens: 3, completion_tokens: 11, total_tokens: 14 },
      service_tier: 'default',
      system_fingerprint: 'fp_sim',
    });
  });

  it('reports the service tier it ran on: the one asked for, default for auto', async () => {
    for (const [asked, used] of [
      ['priority', 'priority'],
      ['flex', 'flex'],
      ['auto', 'default'],
      [undefined, 'default'],
    ]) {
      expect((await readJson(await postChat(sim.url, { ...hello, service_tier: asked }))).service_tier).toBe(used);
    }
  });

  it('answers with a tool call', async () => {
    const body = await readJson(await postChat(sim.url, weather));
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"sim"}' } },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
  });

  it('returns logprobs with top_logprobs for every content token', async () => {
    const body = await readJson(await postChat(sim.url, { ...hello, logprobs: true, top_logprobs: 2 }));
    const { content } = body.choices[0].logprobs;
    expect(content).toHaveLength(body.usage.completion_tokens);
    expect(content.map((entry: { token: string }) => entry.token).join('')).toBe(body.choices[0].message.content);
    expect(content[0]).toEqual({
      token: 'This',
      logprob: -0.01,
      bytes: [84, 104, 105, 115],
      top_logprobs: [
        { token: 'This', logprob: -0.01, bytes: [84, 104, 105, 115] },
        { token: ' the', logprob: -2.01, bytes: [32, 116, 104, 101] },
      ],
    });
  });

  it('strips the knob suffix from the model it reports', async () => {
    const body = await readJson(await postChat(sim.url, { ...hello, model: 'sim-model@latency=0' }));
    expect(body.model).toBe('sim-model');
  });
});

describe('POST /v1/chat/completions, streaming', () => {
  it('streams data-only chat.completion.chunk events: role, content, finish_reason, [DONE]', async () => {
    const response = await postChat(sim.url, { ...hello, stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const data = await readSseData(response);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line));
    for (const chunk of chunks) expect(chunk).toEqual({ ...chunkEnvelope, id: chunks[0].id, choices: expect.any(Array) });

    expect(chunks[0].choices).toEqual([
      { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
    ]);
    const content = chunks.slice(1, -1);
    expect(content.map((chunk) => chunk.choices[0].delta.content).join('')).toBe('This is a simulated reply. You said: Hello there');
    expect(content.every((chunk) => chunk.choices[0].finish_reason === null)).toBe(true);
    expect(chunks.at(-1).choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('adds a choices-less usage chunk before [DONE] with stream_options.include_usage, and usage: null on the others', async () => {
    const data = await readSseData(await postChat(sim.url, { ...hello, stream: true, stream_options: { include_usage: true } }));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks.at(-1)).toEqual({ ...chunkEnvelope, choices: [], usage: { ...usageShape, completion_tokens: 11 } });
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('streams a tool call: id and name first, arguments in several pieces, finish_reason tool_calls', async () => {
    const data = await readSseData(await postChat(sim.url, { ...weather, stream: true }));
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks[0].choices[0].delta).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '' } }],
      refusal: null,
    });
    const pieces = chunks.slice(1, -1).map((chunk) => chunk.choices[0].delta.tool_calls[0]);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((piece) => piece.index === 0 && !('id' in piece))).toBe(true);
    expect(pieces.map((piece) => piece.function.arguments).join('')).toBe('{"city":"sim"}');
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
  });

  it('streams logprobs with each content chunk', async () => {
    const data = await readSseData(await postChat(sim.url, { ...hello, stream: true, logprobs: true, top_logprobs: 1 }));
    const content = data.slice(1, -2).map((line) => JSON.parse(line).choices[0]);
    for (const choice of content) {
      expect(choice.logprobs.content.map((entry: { token: string }) => entry.token).join('')).toBe(choice.delta.content);
    }
  });
});

describe('request checks, as OpenAI makes them', () => {
  const errorBody = (message: string, param: string | null, code: string | null, type = 'invalid_request_error') => ({
    error: { message, type, param, code },
  });

  it('answers 401 without a bearer token', async () => {
    const response = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(hello) });
    expect(response.status).toBe(401);
    expect(await readJson(response)).toEqual(errorBody(expect.stringContaining("You didn't provide an API key"), null, null));
    expect((await fetch(`${sim.url}/v1/models`)).status).toBe(401);
  });

  it.each([
    ['no messages', { model: 'sim-model' }, errorBody("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter')],
    [
      'empty messages',
      { model: 'sim-model', messages: [] },
      errorBody(
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        'messages',
        'empty_array',
      ),
    ],
    [
      'messages not an array',
      { model: 'sim-model', messages: 'hi' },
      errorBody("Invalid type for 'messages': expected an array of objects, but got a string instead.", 'messages', 'invalid_type'),
    ],
    ['no model', { messages: hello.messages }, errorBody('you must provide a model parameter', null, null)],
    [
      'a bad role',
      { model: 'sim-model', messages: [{ role: 'robot', content: 'x' }] },
      errorBody(
        "Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', 'developer'.",
        'messages[0].role',
        'invalid_value',
      ),
    ],
    [
      'a stop that is not a string',
      { ...hello, stop: 5 },
      errorBody("Invalid type for 'stop': expected a string or an array of strings, but got an integer instead.", 'stop', 'invalid_type'),
    ],
    [
      'a tool without a function name',
      { ...hello, tools: [{ type: 'function', function: {} }] },
      errorBody("Missing required parameter: 'tools[0].function.name'.", 'tools[0].function.name', 'missing_required_parameter'),
    ],
    [
      'an unknown reasoning_effort',
      { ...hello, reasoning_effort: 'extreme' },
      errorBody(
        "Invalid value: 'extreme'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'.",
        'reasoning_effort',
        'invalid_value',
      ),
    ],
    [
      'an unknown service_tier',
      { ...hello, service_tier: 'turbo' },
      errorBody(
        "Invalid value: 'turbo'. Supported values are: 'auto', 'default', 'flex', 'priority', 'scale'.",
        'service_tier',
        'invalid_value',
      ),
    ],
    [
      'stream_options without stream',
      { ...hello, stream_options: { include_usage: true } },
      errorBody("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options', null),
    ],
    [
      'max_tokens on a reasoning model',
      { ...hello, model: 'sim-reason', max_tokens: 10 },
      errorBody(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'max_tokens',
        'unsupported_parameter',
      ),
    ],
  ])('answers 400 for %s', async (_, body, expected) => {
    const response = await postChat(sim.url, body);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual(expected);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await postChat(sim.url, '{"model":');
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual(errorBody(expect.stringContaining('We could not parse the JSON body'), null, null));
  });

  it('answers 404 for an unknown path', async () => {
    const response = await fetch(`${sim.url}/v1/nothing`, { headers: { authorization: 'Bearer x' } });
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual(errorBody('Invalid URL (GET /v1/nothing)', null, null));
  });
});

describe('GET /v1/models', () => {
  it('lists the sim models in OpenAI list shape', async () => {
    const response = await fetch(`${sim.url}/v1/models`, { headers: { authorization: 'Bearer x' } });
    const body = await readJson(response);
    expect(body.object).toBe('list');
    expect(body.data.map((model: { id: string }) => model.id)).toEqual(['sim-model', 'sim-mini', 'sim-reason', 'sim-decide']);
    expect(body.data[0]).toEqual({ id: 'sim-model', object: 'model', created: expect.any(Number), owned_by: 'model-gateway-sim' });
  });
});

describe('/__sim/stats', () => {
  it('counts requests per path and keeps the last chat request body and headers, until reset', async () => {
    await postChat(sim.url, { ...hello, user: 'hashed-user' }, { 'x-trace': 'abc' });
    await postChat(sim.url, hello);
    await fetch(`${sim.url}/v1/models?x=1`, { headers: { authorization: 'Bearer x' } });

    const stats = await readSimStats(sim.url);
    expect(stats.requests).toEqual({ '/v1/chat/completions': 2, '/v1/models': 1 });
    expect(stats.lastRequestBody).toEqual(hello);
    expect(stats.lastRequestHeaders).toMatchObject({ authorization: 'Bearer test-key' });

    const reset = await readJson(await fetch(`${sim.url}/__sim/reset`, { method: 'POST' }));
    expect(reset).toEqual({ requests: {} });
  });

  it('keeps a body that is not JSON as text', async () => {
    await postChat(sim.url, 'not json');
    expect((await readSimStats(sim.url)).lastRequestBody).toBe('not json');
  });
});

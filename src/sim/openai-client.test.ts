import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from './server.js';
import { readSimStats } from './test-support.testing.js';

/** The official client is the strictest judge of "speaks OpenAI": it parses every chunk and error. */
let sim: Simulator;
let client: OpenAI;
beforeAll(async () => {
  sim = await startSimulator({});
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => fetch(`${sim.url}/__sim/reset`, { method: 'POST' }));

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Oslo?' }];
const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];

describe('the openai npm client against the simulator', () => {
  it('creates a completion', async () => {
    const completion = await client.chat.completions.create({ model: 'sim-model', messages });
    expect(completion.choices[0]?.message.content).toBe('This is a simulated reply. You said: What is the weather in Oslo?');
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it('streams a completion with usage, parsing every chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'sim-model@chunks=4',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'This is a simulated reply. You said: What is the weather in Oslo?',
    );
    expect(chunks).toHaveLength(1 + 4 + 1 + 1);
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(16);
  });

  it('accumulates a streamed tool call with the stream helper', async () => {
    const stream = client.chat.completions.stream({ model: 'sim-model', messages, tools });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({ type: 'function', id: expect.stringMatching(/^call_/), function: { name: 'get_weather' } });
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'sim' });
  });

  it('parses a structured output', async () => {
    const completion = await client.chat.completions.create({
      model: 'sim-model',
      messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'forecast', schema: { type: 'object', properties: { sky: { type: 'string', enum: ['clear', 'cloudy'] } } } },
      },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ sky: 'clear' });
  });

  it('replays a recorded stream through the client', async () => {
    const stream = await client.chat.completions.create({ model: 'fixture:openai/issue-15789-step-1', messages, stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('PRE_TOOL');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('sees a simulated 429 as a RateLimitError, and retries it after Retry-After', async () => {
    const error = await client.chat.completions.create({ model: 'sim-model@status=429', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests' });

    const retrying = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'x', maxRetries: 2 });
    await expect(retrying.chat.completions.create({ model: 'sim-model@status=503,retry_after=0', messages })).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
    const stats = await readSimStats(sim.url);
    expect(stats.requests['/v1/chat/completions']).toBe(1 + 3);
  });

  it('raises the error event of a failing stream as an APIError', async () => {
    const stream = await client.chat.completions.create({
      model: 'sim-model@fail_after=2,fail_mode=error-event',
      messages,
      stream: true,
    });
    const consume = async () => {
      for await (const _ of stream);
    };
    await expect(consume()).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('lists the models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['sim-model', 'sim-mini', 'sim-reason', 'sim-decide']);
  });
});

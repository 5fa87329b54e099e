import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdapterContext } from '../../protocol/adapters.js';
import type { ChatCompletionChunk, ChatRequest } from '../../protocol/chat.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { type Simulator, startSimulator } from '../../sim/server.js';
import { readSimStats } from '../../sim/test-support.testing.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { ANTHROPIC_VERSION, anthropicChatAdapter as adapter } from './anthropic-chat-adapter.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await closeAllPools();
  await sim.close();
});
beforeEach(() => fetch(`${sim.url}/__sim/reset`, { method: 'POST' }));

const hello: ChatRequest = {
  model: 'anthropic/claude-sim',
  messages: [{ role: 'user', content: 'Hello there' }],
  user: 'alice@example.com',
};
const weather: ChatRequest = {
  ...hello,
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ],
};

const targetFor = (upstreamModel = 'claude-sim', overrides: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  providerId: 'anthropic',
  kind: 'anthropic',
  baseUrl: `${sim.url}/v1/`,
  apiKey: 'sk-ant-test',
  upstreamModel,
  maxCompletionTokens: 8_192,
  timeoutMs: 2_000,
  ...overrides,
});
const contextWith = (signal: AbortSignal = new AbortController().signal): AdapterContext => ({ signal, endUserId: 'hashed-alice' });

async function collect(chunks: AsyncIterable<ChatCompletionChunk>, into: ChatCompletionChunk[] = []): Promise<ChatCompletionChunk[]> {
  for await (const chunk of chunks) into.push(chunk);
  return into;
}

async function failureOf(pending: Promise<unknown>): Promise<UpstreamError> {
  const error = await pending.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

/** What a client rebuilds from the deltas. */
function assemble(chunks: ChatCompletionChunk[]) {
  const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
  const args = deltas.flatMap((delta) => delta.tool_calls ?? []).map((call) => call.function?.arguments ?? '');
  return {
    content: deltas.map((delta) => delta.content ?? '').join(''),
    reasoning: deltas.map((delta) => delta.reasoning ?? '').join(''),
    toolArguments: args.join(''),
    finish: chunks.at(-1)?.choices[0]?.finish_reason,
    usage: chunks.at(-1)?.usage,
  };
}

describe('anthropicChatAdapter.complete against the simulator', () => {
  it('posts a Messages body with x-api-key and anthropic-version, and maps the Message', async () => {
    const completion = await adapter.complete(
      { ...hello, messages: [{ role: 'system', content: 'Be brief.' }, ...hello.messages] },
      targetFor(),
      contextWith(),
    );
    expect(completion).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      object: 'chat.completion',
      model: 'claude-sim',
      system_fingerprint: null,
      service_tier: 'standard',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'This is a simulated reply. You said: Hello there' },
          finish_reason: 'stop',
          native_finish_reason: 'end_turn',
        },
      ],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 11,
        total_tokens: 16,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      },
    });
    const stats = await readSimStats(sim.url);
    expect(stats.requests).toEqual({ '/v1/messages': 1 });
    expect(stats.lastRequestHeaders).toMatchObject({
      'x-api-key': 'sk-ant-test',
      'anthropic-version': ANTHROPIC_VERSION,
      'content-type': 'application/json',
    });
    expect(stats.lastRequestBody).toEqual({
      model: 'claude-sim',
      max_tokens: 8_192,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }],
      metadata: { user_id: 'hashed-alice' },
    });
  });

  it('maps a tool call, its input as JSON arguments', async () => {
    const completion = await adapter.complete(weather, targetFor(), contextWith());
    expect(completion.choices[0]).toMatchObject({
      message: {
        content: null,
        tool_calls: [
          { id: expect.stringMatching(/^toolu_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"sim"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('asks for thinking by effort, within what the simulator (like Anthropic) accepts, and maps it to reasoning', async () => {
    const completion = await adapter.complete({ ...hello, reasoning: { effort: 'low' }, temperature: 0.3 }, targetFor(), contextWith());
    expect(completion.choices[0]?.message.reasoning).toBe('The user wants a reply. A short, direct answer will do.');
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({
      max_tokens: 8_192,
      thinking: { type: 'enabled', budget_tokens: 1_638 },
    });
  });

  it('goes through a tool loop with reasoning on, which the simulator (like Anthropic) refuses to think in', async () => {
    const loop: ChatRequest = {
      ...weather,
      reasoning: { effort: 'high' },
      messages: [
        ...weather.messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
      ],
    };
    const completion = await adapter.complete(loop, targetFor(), contextWith());
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect((await readSimStats(sim.url)).lastRequestBody).not.toHaveProperty('thinking');
  });

  it('maps a recorded Message replayed by the simulator (issue-10372-tool-use)', async () => {
    const completion = await adapter.complete(hello, targetFor('fixture:anthropic/issue-10372-tool-use.1'), contextWith());
    expect(completion.choices[0]?.message.tool_calls?.[0]?.function).toEqual({ name: 'getWeather', arguments: '{"city":"Tokyo"}' });
  });

  it('rejects a 529 as a status error with overloaded_error as the provider code', async () => {
    const error = await failureOf(adapter.complete(hello, targetFor('claude-sim@status=529'), contextWith()));
    expect(error.failure).toBe('status');
    expect(error.message).toBe('upstream answered 529: Overloaded');
    expect(error.details).toMatchObject({
      status: 529,
      providerCode: 'overloaded_error',
      body: { type: 'error', error: { type: 'overloaded_error' } },
    });
  });

  it('rejects a 429 with rate_limit_error and the Retry-After hint', async () => {
    const error = await failureOf(adapter.complete(hello, targetFor('claude-sim@status=429,retry_after=2'), contextWith()));
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 2_000, providerCode: 'rate_limit_error' });
  });

  it('rejects without an API key as the authentication_error Anthropic sends', async () => {
    const error = await failureOf(adapter.complete(hello, targetFor('claude-sim', { apiKey: undefined }), contextWith()));
    expect(error.details).toMatchObject({ status: 401, providerCode: 'authentication_error' });
  });

  it('rejects a truncated body as malformed, and a silent upstream as a timeout', async () => {
    expect((await failureOf(adapter.complete(hello, targetFor('claude-sim@malformed=1'), contextWith()))).failure).toBe('malformed');
    const timeout = await failureOf(adapter.complete(hello, targetFor('claude-sim@hang=1', { timeoutMs: 150 }), contextWith()));
    expect(timeout.failure).toBe('timeout');
  });
});

describe('anthropicChatAdapter.stream against the simulator', () => {
  it('asks for a stream and yields a role chunk, text deltas and a final chunk with finish reason and usage', async () => {
    const chunks = await collect(await adapter.stream(hello, targetFor(), contextWith()));
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ stream: true, metadata: { user_id: 'hashed-alice' } });
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant' });
    expect(assemble(chunks)).toEqual({
      content: 'This is a simulated reply. You said: Hello there',
      reasoning: '',
      toolArguments: '',
      finish: 'stop',
      usage: {
        prompt_tokens: 3,
        completion_tokens: 11,
        total_tokens: 14,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      },
    });
    expect(chunks.filter((chunk) => chunk.usage)).toHaveLength(1);
    expect(chunks.every((chunk) => !('system_fingerprint' in chunk))).toBe(true);
  });

  it('streams tool-call deltas from input_json_delta pieces', async () => {
    const chunks = await collect(await adapter.stream(weather, targetFor(), contextWith()));
    const first = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])[0];
    expect(first).toEqual({
      index: 0,
      id: expect.stringMatching(/^toolu_/),
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(assemble(chunks)).toMatchObject({ toolArguments: '{"city":"sim"}', finish: 'tool_calls' });
  });

  it('streams thinking as reasoning deltas before the content', async () => {
    const chunks = await collect(await adapter.stream({ ...hello, reasoning: { effort: 'medium' } }, targetFor(), contextWith()));
    expect(assemble(chunks)).toMatchObject({
      reasoning: 'The user wants a reply. A short, direct answer will do.',
      content: 'This is a simulated reply. You said: Hello there',
    });
    const firstContent = chunks.findIndex((chunk) => chunk.choices[0]?.delta.content);
    const lastReasoning = chunks.findLastIndex((chunk) => chunk.choices[0]?.delta.reasoning);
    expect(lastReasoning).toBeLessThan(firstContent);
  });

  it.each([
    ['anthropic-text', "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?", ''],
    ['issue-10781.1', 'Let me check.', '{"city": "San Francisco"}'],
    ['anthropic-tool-no-args', "I'll update the issue list for you.", '{}'],
  ])('maps the recorded stream %s replayed over HTTP', async (name, content, toolArguments) => {
    const chunks = await collect(await adapter.stream(hello, targetFor(`fixture:anthropic/${name}`), contextWith()));
    expect(assemble(chunks)).toMatchObject({ content, toolArguments });
    expect(chunks.at(-1)?.usage).toBeDefined();
  });

  it('rejects before streaming when the upstream answers 529', async () => {
    const error = await failureOf(adapter.stream(hello, targetFor('claude-sim@status=529'), contextWith()));
    expect(error.details).toMatchObject({ status: 529, providerCode: 'overloaded_error' });
  });

  it('throws the mid-stream `error` event as a status error with its type, after the chunks before it', async () => {
    const received: ChatCompletionChunk[] = [];
    const chunks = await adapter.stream(hello, targetFor('claude-sim@fail_after=5,fail_mode=error-event'), contextWith());
    const error = await failureOf(collect(chunks, received));
    expect(received.map((chunk) => chunk.choices[0]?.delta)).toEqual([{ role: 'assistant' }, { content: 'This' }, { content: ' is' }]);
    expect(error.failure).toBe('status');
    expect(error.message).toBe('upstream failed mid-stream: Overloaded');
    expect(error.details).toEqual({
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      providerCode: 'overloaded_error',
    });
  });

  it('throws a connection failure when the stream breaks before message_stop', async () => {
    const chunks = await adapter.stream(hello, targetFor('claude-sim@fail_after=4'), contextWith());
    expect((await failureOf(collect(chunks))).failure).toBe('connection');
  });

  it('throws malformed for an event that is not JSON', async () => {
    const chunks = await adapter.stream(hello, targetFor('claude-sim@malformed=1'), contextWith());
    expect((await failureOf(collect(chunks))).failure).toBe('malformed');
  });

  it('times out when the first event does not come within timeoutMs', async () => {
    const chunks = await adapter.stream(hello, targetFor('claude-sim@ttft=1000', { timeoutMs: 150 }), contextWith());
    expect((await failureOf(collect(chunks))).failure).toBe('timeout');
  });

  it('stops with aborted when the caller aborts mid-stream', async () => {
    const controller = new AbortController();
    const chunks = (await adapter.stream(hello, targetFor('claude-sim@chunk_delay=50'), contextWith(controller.signal)))[
      Symbol.asyncIterator
    ]();
    await chunks.next();
    controller.abort();
    expect((await failureOf(chunks.next())).failure).toBe('aborted');
  });

  it('lets the consumer stop early, and the next request still goes through', async () => {
    for await (const _chunk of await adapter.stream(hello, targetFor('claude-sim@chunk_delay=20'), contextWith())) break;
    expect((await adapter.complete(hello, targetFor(), contextWith())).choices[0]?.finish_reason).toBe('stop');
  });
});

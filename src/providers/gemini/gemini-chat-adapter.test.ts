import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterContext } from '../../protocol/adapters.js';
import type { ChatCompletionChunk, ChatRequest } from '../../protocol/chat.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { resolveFixturesDir } from '../../sim/fixtures.js';
import { type Simulator, startSimulator } from '../../sim/server.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { readFixtureEvents, readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { geminiChatAdapter as adapter } from './gemini-chat-adapter.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir: resolveFixturesDir() });
});
afterAll(async () => {
  await sim.close();
  await closeAllPools();
});

const upstreams: TestUpstream[] = [];
async function upstream(handle: (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>) {
  const started = await startTestUpstream(handle);
  upstreams.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((started) => started.close()));
});

const request: ChatRequest = { model: 'google/gemini', messages: [{ role: 'user', content: 'Hello there' }], user: 'alice@example.com' };
const weatherRequest: ChatRequest = {
  ...request,
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ],
};

function target(upstreamModel: string, overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
  return {
    providerId: 'google',
    kind: 'gemini',
    baseUrl: `${sim.url}/v1beta/`,
    apiKey: 'g-test',
    upstreamModel,
    timeoutMs: 2_000,
    ...overrides,
  };
}

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

const simStats = async () =>
  (await (await fetch(`${sim.url}/__sim/stats`)).json()) as { lastRequestBody: unknown; lastRequestHeaders: Record<string, string> };

describe('geminiChatAdapter.complete (against the simulator)', () => {
  it('posts generateContent with the key in x-goog-api-key and maps the text answer', async () => {
    const before = Math.floor(Date.now() / 1000);
    const completion = await adapter.complete({ ...request, temperature: 0.3, max_tokens: 100 }, target('sim-gemini'), contextWith());
    expect(completion).toMatchObject({ object: 'chat.completion', model: 'sim-gemini', system_fingerprint: null });
    expect(completion.id).toMatch(/^[\w-]{23}$/);
    expect(completion.created).toBeGreaterThanOrEqual(before);
    expect(completion.choices).toStrictEqual([
      {
        index: 0,
        message: { role: 'assistant', content: 'This is a simulated reply. You said: Hello there' },
        finish_reason: 'stop',
        native_finish_reason: 'STOP',
      },
    ]);
    expect(completion.usage).toStrictEqual({ prompt_tokens: 3, completion_tokens: 11, total_tokens: 14 });

    const { lastRequestBody, lastRequestHeaders } = await simStats();
    expect(lastRequestHeaders['x-goog-api-key']).toBe('g-test');
    expect(lastRequestHeaders).not.toHaveProperty('authorization');
    expect(lastRequestBody).toStrictEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }],
      generationConfig: { temperature: 0.3, maxOutputTokens: 100 },
    });
    expect(JSON.stringify(lastRequestBody)).not.toContain('alice');
  });

  it('maps a function call, with the synthesized id call_0', async () => {
    const completion = await adapter.complete(weatherRequest, target('sim-gemini'), contextWith());
    expect(completion.choices[0]).toMatchObject({
      message: {
        content: null,
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"sim"}' } }],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('asks for thoughts and returns them as reasoning, counted as reasoning tokens', async () => {
    const completion = await adapter.complete(
      { ...request, reasoning: { effort: 'low' } },
      target('gemini-3-flash-preview'),
      contextWith(),
    );
    expect(completion.choices[0]?.message.reasoning).toContain('The user wrote: "Hello there"');
    const reasoningTokens = completion.usage?.completion_tokens_details?.reasoning_tokens ?? 0;
    expect(reasoningTokens).toBeGreaterThan(0);
    expect(completion.usage?.completion_tokens).toBe(11 + reasoningTokens);
    expect((await simStats()).lastRequestBody).toMatchObject({
      generationConfig: { thinkingConfig: { thinkingLevel: 'low', includeThoughts: true } },
    });
  });

  it('maps the replayed prompt block (issue-19758-prompt-block) to an empty content_filter choice', async () => {
    const completion = await adapter.complete(request, target('fixture:gemini/issue-19758-prompt-block'), contextWith());
    expect(completion.choices).toStrictEqual([
      {
        index: 0,
        message: { role: 'assistant', content: '' },
        finish_reason: 'content_filter',
        native_finish_reason: 'PROHIBITED_CONTENT',
      },
    ]);
  });

  it('rejects the replayed google-429-retry-info with status, RetryInfo delay and RESOURCE_EXHAUSTED', async () => {
    const error = await failureOf(adapter.complete(request, target('fixture:gemini/google-429-retry-info'), contextWith()));
    expect(error.failure).toBe('status');
    expect(error.message).toBe('upstream answered 429: You exceeded your current quota, please check your plan.');
    expect(error.details).toEqual({
      status: 429,
      retryAfterMs: 34_400,
      body: readFixtureJson('gemini/google-429-retry-info.json'),
      providerCode: 'RESOURCE_EXHAUSTED',
    });
  });

  it('rejects a simulated 429 with the retry delay of its RetryInfo', async () => {
    const error = await failureOf(adapter.complete(request, target('sim-gemini@status=429,retry_after=2'), contextWith()));
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 2000, providerCode: 'RESOURCE_EXHAUSTED' });
  });

  it('rejects the replayed google-thinking-level-minimal-unsupported as a 400 INVALID_ARGUMENT', async () => {
    const error = await failureOf(
      adapter.complete(request, target('fixture:gemini/google-thinking-level-minimal-unsupported'), contextWith()),
    );
    expect(error.details).toMatchObject({ status: 400, providerCode: 'INVALID_ARGUMENT' });
    expect(error.details.retryAfterMs).toBeUndefined();
  });

  it('rejects a 503 UNAVAILABLE', async () => {
    const error = await failureOf(adapter.complete(request, target('sim-gemini@status=503'), contextWith()));
    expect(error.details).toMatchObject({ status: 503, providerCode: 'UNAVAILABLE' });
  });

  it('rejects truncated JSON as malformed, and a connection cut mid-body as a connection failure', async () => {
    expect((await failureOf(adapter.complete(request, target('sim-gemini@malformed=1'), contextWith()))).failure).toBe('malformed');
    expect((await failureOf(adapter.complete(request, target('sim-gemini@fail_after=0'), contextWith()))).failure).toBe('connection');
  });

  it('times out when no answer comes within timeoutMs', async () => {
    const error = await failureOf(adapter.complete(request, target('sim-gemini@hang=1', { timeoutMs: 150 }), contextWith()));
    expect(error.failure).toBe('timeout');
  });

  it('rejects as aborted when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = adapter.complete(request, target('sim-gemini@hang=1'), contextWith(controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect((await failureOf(pending)).failure).toBe('aborted');
  });
});

describe('geminiChatAdapter.stream (against the simulator)', () => {
  it('streams streamGenerateContent?alt=sse: role, content chunks, the finish, then the usage chunk', async () => {
    const chunks = await collect(await adapter.stream(request, target('sim-gemini@chunks=3'), contextWith()));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: 'This is a' },
      { content: ' simulated reply. You' },
      { content: ' said: Hello there' },
      undefined,
    ]);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([null, null, 'stop', undefined]);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 11, total_tokens: 14 } });
    expect(chunks.every((chunk) => !('system_fingerprint' in chunk) && chunk.id === chunks[0]?.id && chunk.model === 'sim-gemini')).toBe(
      true,
    );
  });

  it('streams thoughts as reasoning and a function call as one tool-call delta', async () => {
    const chunks = await collect(
      await adapter.stream({ ...weatherRequest, reasoning: { effort: 'high' } }, target('sim-gemini'), contextWith()),
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', reasoning: expect.stringContaining('The user wrote') },
      { tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"sim"}' } }] },
      {},
      undefined,
    ]);
    expect(chunks[2]?.choices[0]).toMatchObject({ finish_reason: 'tool_calls', native_finish_reason: 'STOP' });
  });

  it.each([
    ['gemini/google-text', 4],
    ['gemini/google-tool-call', 3],
    ['gemini/google-stream-no-args-tool-call', 10],
    ['gemini/issue-19758-prompt-block', 2],
  ])('replays %s over HTTP as %i canonical chunks ending with the usage', async (fixture, count) => {
    const chunks = await collect(await adapter.stream(request, target(`fixture:${fixture}`), contextWith()));
    expect(chunks).toHaveLength(count);
    expect(chunks.at(-1)?.usage).toBeDefined();
  });

  it('throws a connection failure after the chunks that came before a broken connection', async () => {
    const received: ChatCompletionChunk[] = [];
    const error = await failureOf(
      collect(await adapter.stream(request, target('sim-gemini@chunks=4,fail_after=2'), contextWith()), received),
    );
    expect(error.failure).toBe('connection');
    expect(received).toHaveLength(2);
  });

  it('throws a status failure with the Google code for an in-stream error event', async () => {
    const received: ChatCompletionChunk[] = [];
    const pending = collect(
      await adapter.stream(request, target('sim-gemini@chunks=4,fail_after=1,fail_mode=error-event'), contextWith()),
      received,
    );
    const error = await failureOf(pending);
    expect(received).toHaveLength(1);
    expect(error.failure).toBe('status');
    expect(error.details).toMatchObject({ providerCode: 'INTERNAL', body: { error: { code: 500, status: 'INTERNAL' } } });
  });

  it('throws malformed for an event that is not JSON', async () => {
    const chunks = await adapter.stream(request, target('sim-gemini@chunks=3,malformed=1'), contextWith());
    expect((await failureOf(collect(chunks))).failure).toBe('malformed');
  });

  it('rejects before streaming when the upstream answers an error status', async () => {
    const error = await failureOf(adapter.stream(request, target('sim-gemini@status=429,retry_after=1'), contextWith()));
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 1000, providerCode: 'RESOURCE_EXHAUSTED' });
  });

  it('times out when no first event comes within timeoutMs', async () => {
    const chunks = await adapter.stream(request, target('sim-gemini@ttft=1000', { timeoutMs: 150 }), contextWith());
    expect((await failureOf(collect(chunks))).failure).toBe('timeout');
  });

  it('stops with aborted when the caller aborts mid-stream', async () => {
    const controller = new AbortController();
    const chunks = (await adapter.stream(request, target('sim-gemini@chunks=5,chunk_delay=200'), contextWith(controller.signal)))[
      Symbol.asyncIterator
    ]();
    expect((await chunks.next()).value?.choices[0]?.delta.content).toBe('This is');
    controller.abort();
    expect((await failureOf(chunks.next())).failure).toBe('aborted');
  });
});

describe('geminiChatAdapter.stream (against a test upstream)', () => {
  const sse = (events: string[]) => events.map((data) => `data: ${data}\r\n\r\n`).join('');

  it('asks for alt=sse with an event-stream accept header', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(sse(readFixtureEvents('gemini/google-text.chunks.txt')));
    });
    await collect(await adapter.stream(request, { ...target('gemini-2.5-flash'), baseUrl: `${server.origin}/v1beta` }, contextWith()));
    expect(server.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      headers: { accept: 'text/event-stream', 'x-goog-api-key': 'g-test' },
    });
  });

  it('throws "stream ended early" when the body ends before a finish reason', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(sse(readFixtureEvents('gemini/google-text.chunks.txt').slice(0, 2)));
    });
    const received: ChatCompletionChunk[] = [];
    const error = await failureOf(
      collect(await adapter.stream(request, { ...target('gemini-2.5-flash'), baseUrl: server.origin }, contextWith()), received),
    );
    expect(error).toMatchObject({ failure: 'connection', message: 'stream ended early' });
    expect(received).toHaveLength(2);
  });

  it('rejects a 2xx that is not an event stream as malformed', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(readFixtureJson('gemini/google-text.json')));
    });
    const error = await failureOf(adapter.stream(request, { ...target('gemini-2.5-flash'), baseUrl: server.origin }, contextWith()));
    expect(error.failure).toBe('malformed');
    expect(error.details.status).toBe(200);
  });

  it('rejects a 200 without candidates or prompt feedback as malformed', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"usageMetadata":{}}');
    });
    const error = await failureOf(adapter.complete(request, { ...target('gemini-2.5-flash'), baseUrl: server.origin }, contextWith()));
    expect(error.failure).toBe('malformed');
  });
});

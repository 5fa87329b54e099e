import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AdapterContext } from '../../protocol/adapters.js';
import type { ChatCompletionChunk, ChatRequest } from '../../protocol/chat.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { readFixtureEvents, readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { openAIChatAdapter as adapter } from './openai-chat-adapter.js';

const upstreams: TestUpstream[] = [];
async function upstream(handle: (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>) {
  const started = await startTestUpstream(handle);
  upstreams.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((started) => started.close()));
});
afterAll(closeAllPools);

const request: ChatRequest = { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'Hi' }], user: 'alice@example.com' };

function targetFor(server: TestUpstream, overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
  return {
    providerId: 'test',
    kind: 'openai',
    baseUrl: `${server.origin}/v1/`,
    apiKey: 'sk-test',
    headers: { 'x-extra': 'yes' },
    upstreamModel: 'gpt-test',
    timeoutMs: 2_000,
    ...overrides,
  };
}

function contextWith(signal: AbortSignal = new AbortController().signal, dispatcher?: Dispatcher): AdapterContext {
  return { signal, endUserId: 'hashed-alice', dispatcher };
}

/** Answers with recorded events framed as OpenAI does on the wire, optionally with pauses between them. */
async function replay(response: ServerResponse, events: string[], options: { delayMs?: number; done?: boolean } = {}): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  await writeEvents(response, events, options);
}

async function writeEvents(response: ServerResponse, events: string[], { delayMs = 0, done = true } = {}): Promise<void> {
  for (const data of events) {
    response.write(`data: ${data}\n\n`);
    if (delayMs) await sleep(delayMs);
  }
  if (done) response.write('data: [DONE]\n\n');
  response.end();
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

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

/** A handler that never answers; `arrival` resolves when the server has the request, with `closed` settling when its socket closes. */
function holdRequests() {
  let arrived!: (held: { closed: Promise<unknown> }) => void;
  const arrival = new Promise<{ closed: Promise<unknown> }>((resolve) => (arrived = resolve));
  return { arrival, hold: (_request: ReceivedRequest, response: ServerResponse) => arrived({ closed: once(response, 'close') }) };
}

describe('openAIChatAdapter.complete', () => {
  it('posts the converted body with credentials and maps openai-text', async () => {
    const server = await upstream((_request, response) => json(response, 200, readFixtureJson('openai/openai-text.json')));
    const completion = await adapter.complete({ ...request, temperature: 0.3 }, targetFor(server), contextWith());

    expect(completion).toMatchObject({ id: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU', system_fingerprint: 'fp_de604bd877' });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const [received] = server.requests;
    expect(received).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-test', 'x-extra': 'yes', 'content-type': 'application/json' },
      body: { model: 'gpt-test', messages: request.messages, temperature: 0.3, user: 'hashed-alice', safety_identifier: 'hashed-alice' },
    });
    expect(received?.body).not.toHaveProperty('stream');
    expect(JSON.stringify(received?.body)).not.toContain('alice@example.com');
  });

  it('sends no Authorization header without an API key', async () => {
    const server = await upstream((_request, response) => json(response, 200, readFixtureJson('openai/mistral-tool-call.json')));
    await adapter.complete(request, targetFor(server, { apiKey: undefined }), contextWith());
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('rejects a 429 with status, Retry-After, parsed body and provider code (openai-error.1)', async () => {
    const body = readFixtureJson('openai/openai-error.1.json');
    const server = await upstream((_request, response) => json(response, 429, body, { 'retry-after': '7' }));
    const error = await failureOf(adapter.complete(request, targetFor(server), contextWith()));
    expect(error.failure).toBe('status');
    expect(error.message).toMatch(/^upstream answered 429: You exceeded your current quota/);
    expect(error.details).toEqual({ status: 429, retryAfterMs: 7000, body, providerCode: 'insufficient_quota' });
  });

  it('rejects a 400 with the provider code and the retry-after-ms hint (reasoning-model-legacy-parameter-error)', async () => {
    const body = readFixtureJson('openai/reasoning-model-legacy-parameter-error.json');
    const server = await upstream((_request, response) => json(response, 400, body, { 'retry-after-ms': '250' }));
    const error = await failureOf(adapter.complete(request, targetFor(server), contextWith()));
    expect(error.details).toMatchObject({ status: 400, retryAfterMs: 250, providerCode: 'unsupported_parameter' });
  });

  it('keeps a non-JSON error body as text', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    });
    const error = await failureOf(adapter.complete(request, targetFor(server), contextWith()));
    expect(error.details).toMatchObject({ status: 502, body: '<html>Bad Gateway</html>' });
  });

  it('rejects invalid JSON on a 200 as malformed', async () => {
    const server = await upstream((_request, response) => json(response, 200, '{"id": "chatcmpl-1", "choi'));
    const error = await failureOf(adapter.complete(request, targetFor(server), contextWith()));
    expect(error.failure).toBe('malformed');
    expect(error.details).toMatchObject({ status: 200, body: '{"id": "chatcmpl-1", "choi' });
  });

  it('rejects a refused connection as a connection failure', async () => {
    const server = await upstream(() => undefined);
    const target = targetFor(server);
    await server.close();
    upstreams.splice(0);
    expect((await failureOf(adapter.complete(request, target, contextWith()))).failure).toBe('connection');
  });

  it('rejects as timeout when no answer comes within timeoutMs, and closes the upstream request', async () => {
    const { arrival, hold } = holdRequests();
    const server = await upstream(hold);
    const started = Date.now();
    const error = await failureOf(adapter.complete(request, targetFor(server, { timeoutMs: 150 }), contextWith()));
    expect(error.failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    await (await arrival).closed;
  });

  it('rejects as aborted when the caller aborts, and the server sees the request close', async () => {
    const { arrival, hold } = holdRequests();
    const server = await upstream(hold);
    const controller = new AbortController();
    const pending = adapter.complete(request, targetFor(server), contextWith(controller.signal));
    const { closed } = await arrival;
    controller.abort();
    expect((await failureOf(pending)).failure).toBe('aborted');
    await closed;
  });

  it('uses the dispatcher it is given', async () => {
    const server = await upstream((_request, response) => json(response, 200, readFixtureJson('openai/openai-text.json')));
    let dispatched = 0;
    const agent = new (class extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        dispatched++;
        return super.dispatch(options, handler);
      }
    })();
    await adapter.complete(request, targetFor(server), contextWith(undefined, agent));
    expect(dispatched).toBe(1);
    await agent.close();
  });
});

describe('openAIChatAdapter.stream', () => {
  it.each([
    ['openai/issue-15789-step-1.chunks.txt', 7],
    ['openai/azure-model-router.1.chunks.txt', 7],
    ['openai/groq-tool-call.chunks.txt', 3],
    ['openai/deepseek-tool-call.chunks.txt', 30],
    ['openai/mistral-text.chunks.txt', 8],
    ['openai/mistral-reasoning.chunks.txt', 4],
  ])('replays %s over HTTP as %i canonical chunks', async (fixture, count) => {
    const server = await upstream((_request, response) => replay(response, readFixtureEvents(fixture)));
    const chunks = await collect(await adapter.stream(request, targetFor(server), contextWith()));
    expect(chunks).toHaveLength(count);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
  });

  it('asks for a stream with usage, whatever the client asked', async () => {
    const server = await upstream((_request, response) => replay(response, readFixtureEvents('openai/mistral-text.chunks.txt')));
    await collect(await adapter.stream({ ...request, stream_options: { include_usage: false } }, targetFor(server), contextWith()));
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('yields each chunk as its event arrives, and the deadline stops at the first one', async () => {
    const events = readFixtureEvents('openai/mistral-text.chunks.txt');
    let written = 0;
    const server = await upstream(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of events) {
        response.write(`data: ${data}\n\n`);
        written++;
        await sleep(40);
      }
      response.end('data: [DONE]\n\n');
    });
    // 8 events 40 ms apart outlast timeoutMs: only the first chunk is timed.
    const chunks = await adapter.stream(request, targetFor(server, { timeoutMs: 150 }), contextWith());
    const writtenAtArrival: number[] = [];
    for await (const _chunk of chunks) writtenAtArrival.push(written);
    expect(writtenAtArrival).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('resolves once the headers arrive, before any event', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await upstream(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      await released;
      await writeEvents(response, readFixtureEvents('openai/groq-tool-call.chunks.txt'));
    });
    const chunks = await adapter.stream(request, targetFor(server), contextWith());
    release();
    expect(await collect(chunks)).toHaveLength(3);
  });

  it('throws a connection failure when the socket breaks mid-stream, after the chunks before it', async () => {
    const server = await upstream(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of readFixtureEvents('openai/mistral-text.chunks.txt').slice(0, 3)) response.write(`data: ${data}\n\n`);
      await sleep(50);
      response.socket?.destroy();
    });
    const received: ChatCompletionChunk[] = [];
    const error = await failureOf(collect(await adapter.stream(request, targetFor(server), contextWith()), received));
    expect(error.failure).toBe('connection');
    expect(received).toHaveLength(3);
  });

  it('throws "stream ended early" when the body ends without [DONE] or a finish reason', async () => {
    const events = readFixtureEvents('openai/mistral-text.chunks.txt').slice(0, 3);
    const server = await upstream((_request, response) => replay(response, events, { done: false }));
    const error = await failureOf(collect(await adapter.stream(request, targetFor(server), contextWith())));
    expect(error.failure).toBe('connection');
    expect(error.message).toBe('stream ended early');
  });

  it('accepts a body that ends after the finish reason without [DONE]', async () => {
    const server = await upstream((_request, response) =>
      replay(response, readFixtureEvents('openai/mistral-text.chunks.txt'), { done: false }),
    );
    expect(await collect(await adapter.stream(request, targetFor(server), contextWith()))).toHaveLength(8);
  });

  it('throws a status failure with the provider code for an in-stream error event', async () => {
    const errorBody = readFixtureJson('openai/openai-error.1.json');
    const events = [...readFixtureEvents('openai/issue-15789-step-1.chunks.txt').slice(0, 2), JSON.stringify(errorBody)];
    const server = await upstream((_request, response) => replay(response, events, { done: false }));
    const received: ChatCompletionChunk[] = [];
    const error = await failureOf(collect(await adapter.stream(request, targetFor(server), contextWith()), received));
    expect(received).toHaveLength(2);
    expect(error.failure).toBe('status');
    expect(error.details).toEqual({ body: errorBody, providerCode: 'insufficient_quota' });
  });

  it('throws malformed for an event that is not JSON', async () => {
    const server = await upstream((_request, response) => replay(response, ['{"id": "x", "choices": [']));
    expect((await failureOf(collect(await adapter.stream(request, targetFor(server), contextWith())))).failure).toBe('malformed');
  });

  it('times out when no first event comes within timeoutMs, and closes the upstream request', async () => {
    let serverSawClose!: Promise<unknown>;
    const server = await upstream((_request, response) => {
      serverSawClose = once(response, 'close');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
    });
    const chunks = await adapter.stream(request, targetFor(server, { timeoutMs: 150 }), contextWith());
    expect((await failureOf(collect(chunks))).failure).toBe('timeout');
    await serverSawClose;
  });

  it('stops with aborted when the caller aborts mid-stream, and the server sees the socket close', async () => {
    let serverSawClose!: Promise<unknown>;
    const server = await upstream((_request, response) => {
      serverSawClose = once(response, 'close');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of readFixtureEvents('openai/mistral-text.chunks.txt').slice(0, 2)) response.write(`data: ${data}\n\n`);
    });
    const controller = new AbortController();
    const chunks = (await adapter.stream(request, targetFor(server), contextWith(controller.signal)))[Symbol.asyncIterator]();
    await chunks.next();
    await chunks.next();
    controller.abort();
    expect((await failureOf(chunks.next())).failure).toBe('aborted');
    await serverSawClose;
  });

  it('closes the upstream request when the consumer stops reading', async () => {
    let serverSawClose!: Promise<unknown>;
    const server = await upstream((_request, response) => {
      serverSawClose = once(response, 'close');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of readFixtureEvents('openai/mistral-text.chunks.txt').slice(0, 2)) response.write(`data: ${data}\n\n`);
    });
    for await (const _chunk of await adapter.stream(request, targetFor(server), contextWith())) break;
    await serverSawClose;
  });

  it('rejects before streaming when the upstream answers an error status', async () => {
    const server = await upstream((_request, response) => json(response, 503, { error: { message: 'overloaded', type: 'server_error' } }));
    const error = await failureOf(adapter.stream(request, targetFor(server), contextWith()));
    expect(error.details).toMatchObject({ status: 503, providerCode: 'server_error' });
  });

  it('rejects a 2xx that is not an event stream as malformed', async () => {
    const server = await upstream((_request, response) => json(response, 200, readFixtureJson('openai/openai-text.json')));
    const error = await failureOf(adapter.stream(request, targetFor(server), contextWith()));
    expect(error.failure).toBe('malformed');
    expect(error.details.status).toBe(200);
  });
});

describe('connection reuse', () => {
  it('sends sequential requests, streams included, over one keep-alive connection', async () => {
    const server = await upstream((received, response) =>
      (received.body as { stream?: boolean }).stream
        ? replay(response, readFixtureEvents('openai/issue-15789-step-1.chunks.txt'))
        : json(response, 200, readFixtureJson('openai/openai-text.json')),
    );
    const target = targetFor(server);
    // undici hands a finished connection back to the pool a tick after the body ends.
    await adapter.complete(request, target, contextWith());
    await setImmediate();
    await collect(await adapter.stream(request, target, contextWith()));
    await setImmediate();
    await adapter.complete(request, target, contextWith());
    expect(server.requests).toHaveLength(3);
    expect(server.connections()).toBe(1);
  });
});

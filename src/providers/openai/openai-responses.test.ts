import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ResponseStreamEvent, ResponsesRequest } from '../../protocol/responses.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { convertOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import { openAIResponses, openAIResponsesBody } from './openai-responses.js';

const upstreams: TestUpstream[] = [];
async function upstream(handle: (request: ReceivedRequest, response: ServerResponse) => void) {
  const started = await startTestUpstream(handle);
  upstreams.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((started) => started.close()));
});
afterAll(closeAllPools);

const target = (server: TestUpstream): UpstreamTarget => ({
  providerId: 'test',
  kind: 'openai',
  baseUrl: `${server.origin}/v1/`,
  apiKey: 'sk-test',
  headers: { 'x-extra': 'yes' },
  upstreamModel: 'gpt-test',
  timeoutMs: 2_000,
});
const context = () => ({ signal: new AbortController().signal });
const body: ResponsesRequest = { model: 'openai/gpt-test', input: 'Hi', reasoning: { effort: 'low' } };

const response = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-test',
  output: [],
  usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
};
const sse = (events: object[]) =>
  events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

async function collect(events: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const all: ResponseStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('openAIResponsesBody', () => {
  it("keeps the Responses fields, names the upstream's model, stores nothing, and leaves the gateway's own fields behind", () => {
    const client = {
      ...body,
      instructions: 'x',
      text: { format: { type: 'json_object' } },
      provider: { sort: 'price' },
      models: ['a'],
      service_tier: 'flex',
      plugins: [],
      prompt_cache_key: 'session-1',
      prompt_cache_options: { mode: 'implicit', ttl: '30m' },
      prompt_cache_retention: '24h',
    };
    expect(openAIResponsesBody(client as ResponsesRequest, { upstreamModel: 'gpt-test' } as UpstreamTarget, true)).toEqual({
      input: 'Hi',
      instructions: 'x',
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_object' } },
      service_tier: 'flex',
      prompt_cache_key: 'session-1',
      prompt_cache_options: { mode: 'implicit', ttl: '30m' },
      prompt_cache_retention: '24h',
      model: 'gpt-test',
      stream: true,
      store: false,
    });
    expect(openAIResponsesBody({ input: 'Hi', service_tier: 'fast' }, { upstreamModel: 'g' } as UpstreamTarget, false)).not.toHaveProperty(
      'service_tier',
    );
  });
});

describe('openAIResponses', () => {
  it('posts to /responses with the credentials and reads the Response', async () => {
    const server = await upstream((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response)));
    expect(await openAIResponses.complete(body, target(server), context())).toEqual(response);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      headers: { authorization: 'Bearer sk-test', 'x-extra': 'yes' },
      body: { model: 'gpt-test', stream: false },
    });
  });

  it('refuses an answer that is not a Response, and passes on an error status', async () => {
    const wrong = await upstream((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}'));
    await expect(openAIResponses.complete(body, target(wrong), context())).rejects.toMatchObject({ failure: 'malformed' });
    const refused = await upstream((_, res) =>
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } })),
    );
    await expect(openAIResponses.complete(body, target(refused), context())).rejects.toMatchObject({
      failure: 'status',
      details: { status: 429, providerCode: 'rate_limit_exceeded' },
    });
  });

  it('streams the typed events to the terminal one', async () => {
    const events = [
      { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress' } },
      { type: 'response.output_text.delta', sequence_number: 1, delta: 'Hi', item_id: 'msg_1', output_index: 0, content_index: 0 },
      { type: 'response.completed', sequence_number: 2, response },
    ];
    const server = await upstream((_, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sse(events)));
    expect(await collect(await openAIResponses.stream(body, target(server), context()))).toEqual(events);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
  });

  it('throws on an error event, on response.failed, and on a stream cut before its end', async () => {
    const error = await upstream((_, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(
        sse([
          { type: 'response.created', sequence_number: 0, response },
          { type: 'error', sequence_number: 1, code: 'server_error', message: 'boom', param: null },
        ]),
      ),
    );
    await expect(collect(await openAIResponses.stream(body, target(error), context()))).rejects.toThrow(/mid-stream: boom/);
    const failed = await upstream((_, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(
        sse([
          {
            type: 'response.failed',
            sequence_number: 0,
            response: { ...response, status: 'failed', error: { code: 'server_error', message: 'model broke' } },
          },
        ]),
      ),
    );
    await expect(collect(await openAIResponses.stream(body, target(failed), context()))).rejects.toThrow(/model broke/);
    const cut = await upstream((_, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sse([{ type: 'response.created', sequence_number: 0, response }])),
    );
    await expect(collect(await openAIResponses.stream(body, target(cut), context()))).rejects.toBeInstanceOf(UpstreamError);
    const typeless = await upstream((_, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {"sequence_number":0}\n\n'),
    );
    await expect(collect(await openAIResponses.stream(body, target(typeless), context()))).rejects.toMatchObject({ failure: 'malformed' });
  });
});

describe('convertOpenAIResponsesUsage', () => {
  it("reads a Response's usage as canonical, details only when given", () => {
    expect(
      convertOpenAIResponsesUsage({
        input_tokens: 5,
        output_tokens: 7,
        total_tokens: 12,
        input_tokens_details: { cached_tokens: 2 },
        output_tokens_details: { reasoning_tokens: 3 },
      }),
    ).toEqual({
      prompt_tokens: 5,
      completion_tokens: 7,
      total_tokens: 12,
      prompt_tokens_details: { cached_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 3 },
    });
    expect(convertOpenAIResponsesUsage({ input_tokens: 5, output_tokens: 7 })).toEqual({
      prompt_tokens: 5,
      completion_tokens: 7,
      total_tokens: 12,
    });
    expect(convertOpenAIResponsesUsage(null)).toBeUndefined();
  });
});

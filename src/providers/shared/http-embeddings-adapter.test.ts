import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { cohereEmbeddingsAdapter } from '../cohere/cohere-embeddings-adapter.js';
import { geminiEmbeddingsAdapter } from '../gemini/gemini-embeddings-adapter.js';
import { openAIEmbeddingsAdapter } from '../openai/openai-embeddings-adapter.js';
import { closeAllPools } from './connection-pools.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from './upstream-server.testing.js';

let server: TestUpstream | undefined;
const serve = async (handle: (request: ReceivedRequest, response: ServerResponse) => void) => (server = await startTestUpstream(handle));
afterEach(async () => server?.close());
afterAll(closeAllPools);

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};
const target = (up: TestUpstream, kind: string, path: string): UpstreamTarget => ({
  providerId: kind,
  kind,
  baseUrl: `${up.origin}${path}`,
  apiKey: 'the-key',
  upstreamModel: 'embed-model',
  timeoutMs: 2_000,
});
const context = { signal: new AbortController().signal };
const texts = (n: number) => ({
  model: 'x/embed',
  input: { kind: 'text' as const, texts: Array.from({ length: n }, (_, i) => `text ${i}`) },
});

describe('httpEmbeddingsAdapter', () => {
  it('POSTs OpenAI’s body to {base}/embeddings with the bearer key', async () => {
    const up = await serve((_, res) => json(res, 200, { data: [{ index: 0, embedding: [1, 0] }], usage: { prompt_tokens: 2 } }));
    const answer = await openAIEmbeddingsAdapter.embed(texts(1), target(up, 'openai', '/v1'), context);
    expect(up.requests[0]).toMatchObject({ method: 'POST', path: '/v1/embeddings', headers: { authorization: 'Bearer the-key' } });
    expect(answer).toEqual({ vectors: [[1, 0]], usage: { prompt_tokens: 2 } });
  });

  it('calls Gemini’s batchEmbedContents with the key in x-goog-api-key', async () => {
    const up = await serve((_, res) => json(res, 200, { embeddings: [{ values: [0.5] }] }));
    await geminiEmbeddingsAdapter.embed(texts(1), target(up, 'gemini', '/v1beta'), context);
    expect(up.requests[0]).toMatchObject({
      path: '/v1beta/models/embed-model:batchEmbedContents',
      headers: { 'x-goog-api-key': 'the-key' },
    });
  });

  it('sends more texts than a call takes in consecutive batches, answered as one in input order', async () => {
    const up = await serve((request, res) => {
      const sent = (request.body as { texts: string[] }).texts;
      json(res, 200, {
        id: `e-${sent.length}`,
        embeddings: { float: sent.map((t) => [Number(t.split(' ')[1])]) },
        meta: { billed_units: { input_tokens: sent.length } },
      });
    });
    const answer = await cohereEmbeddingsAdapter.embed(texts(200), target(up, 'cohere', '/v2'), context);
    expect(up.requests.map((r) => (r.body as { texts: string[] }).texts.length)).toEqual([96, 96, 8]);
    expect(answer.vectors.map((v) => v[0])).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(answer.usage).toEqual({ prompt_tokens: 200 });
    expect(answer.id).toBe('e-96');
  });

  it('reports no usage when one batch reported none', async () => {
    let call = 0;
    const up = await serve((request, res) => {
      const sent = (request.body as { texts: string[] }).texts;
      json(res, 200, {
        embeddings: { float: sent.map(() => [1]) },
        ...(call++ === 0 ? { meta: { billed_units: { input_tokens: 5 } } } : {}),
      });
    });
    expect((await cohereEmbeddingsAdapter.embed(texts(100), target(up, 'cohere', '/v2'), context)).usage).toEqual({});
  });

  it('calls an answer with another number of vectors than inputs malformed', async () => {
    const up = await serve((_, res) => json(res, 200, { data: [{ index: 0, embedding: [1] }] }));
    await expect(openAIEmbeddingsAdapter.embed(texts(2), target(up, 'openai', '/v1'), context)).rejects.toMatchObject({
      failure: 'malformed',
      message: 'upstream answered 1 embeddings for 2 inputs',
    });
  });

  it('turns an error body into a status error with its message and Retry-After', async () => {
    const up = await serve((_, res) =>
      json(res, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '2' }),
    );
    await expect(openAIEmbeddingsAdapter.embed(texts(1), target(up, 'openai', '/v1'), context)).rejects.toMatchObject({
      failure: 'status',
      message: 'upstream answered 429: Rate limit reached',
      details: { status: 429, retryAfterMs: 2000 },
    });
  });
});

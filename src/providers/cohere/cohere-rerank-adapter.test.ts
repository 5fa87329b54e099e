import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { cohereRerankAdapter as adapter } from './cohere-rerank-adapter.js';

let server: TestUpstream | undefined;
const serve = async (handle: (request: ReceivedRequest, response: ServerResponse) => void) => (server = await startTestUpstream(handle));
afterEach(async () => server?.close());
afterAll(closeAllPools);

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const target = (up: TestUpstream): UpstreamTarget => ({
  providerId: 'cohere',
  kind: 'cohere',
  baseUrl: `${up.origin}/v2`,
  apiKey: 'co-key',
  upstreamModel: 'rerank-v3.5',
  timeoutMs: 2_000,
});
const request = { model: 'cohere/rerank-v3.5', query: 'capital of France', documents: ['Berlin', 'Paris'], top_n: 2 };
const context = { signal: new AbortController().signal };

describe('cohereRerankAdapter', () => {
  it('POSTs the v2 body to /v2/rerank with the bearer key and reads the answer', async () => {
    const up = await serve((_, response) => json(response, 200, readFixtureJson('cohere/cohere-reranking.1.json')));
    const answer = await adapter.rerank(request, target(up), context);
    expect(up.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v2/rerank',
      headers: { authorization: 'Bearer co-key', 'content-type': 'application/json' },
      body: { model: 'rerank-v3.5', query: 'capital of France', documents: ['Berlin', 'Paris'], top_n: 2 },
    });
    expect(answer).toMatchObject({ scores: [{ index: 1 }, { index: 0 }], usage: { search_units: 1 } });
  });

  it('turns an error body into a status error with its message and Retry-After', async () => {
    const up = await serve((_, response) =>
      json(
        response,
        429,
        { id: 'e-1', message: 'You are past the per minute request limit, please wait and try again later.' },
        { 'retry-after': '1' },
      ),
    );
    await expect(adapter.rerank(request, target(up), context)).rejects.toMatchObject({
      failure: 'status',
      message: 'upstream answered 429: You are past the per minute request limit, please wait and try again later.',
      details: { status: 429, retryAfterMs: 1000 },
    });
  });

  it('calls a 2xx answer without results malformed', async () => {
    const up = await serve((_, response) => json(response, 200, '<html>ok</html>'));
    await expect(adapter.rerank(request, target(up), context)).rejects.toMatchObject({
      failure: 'malformed',
      details: { body: '<html>ok</html>' },
    });
  });
});

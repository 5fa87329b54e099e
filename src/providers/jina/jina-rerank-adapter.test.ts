import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { closeAllPools } from '../shared/connection-pools.js';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../shared/upstream-server.testing.js';
import { jinaRerankAdapter as adapter } from './jina-rerank-adapter.js';

let server: TestUpstream | undefined;
const serve = async (handle: (request: ReceivedRequest, response: ServerResponse) => void) => (server = await startTestUpstream(handle));
afterEach(async () => server?.close());
afterAll(closeAllPools);

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
const target = (up: TestUpstream): UpstreamTarget => ({
  providerId: 'jina',
  kind: 'jina',
  baseUrl: `${up.origin}/v1/`,
  apiKey: 'jina-key',
  headers: { 'x-team': 'search' },
  upstreamModel: 'jina-reranker-v2-base-multilingual',
  timeoutMs: 2_000,
});
const request = { model: 'jina/reranker', query: 'capital of France', documents: ['Berlin', 'Paris'] };
const context = { signal: new AbortController().signal };

describe('jinaRerankAdapter', () => {
  it('POSTs to /v1/rerank with the bearer key and configured headers, and reads scores and tokens', async () => {
    const up = await serve((_, response) =>
      json(response, 200, {
        model: 'm',
        results: [{ index: 1, relevance_score: 0.9, document: { text: 'Paris' } }],
        usage: { total_tokens: 11 },
      }),
    );
    const answer = await adapter.rerank(request, target(up), context);
    expect(up.requests[0]).toMatchObject({
      path: '/v1/rerank',
      headers: { authorization: 'Bearer jina-key', 'x-team': 'search' },
      body: {
        model: 'jina-reranker-v2-base-multilingual',
        query: 'capital of France',
        documents: ['Berlin', 'Paris'],
        return_documents: false,
      },
    });
    expect(answer).toEqual({ scores: [{ index: 1, relevance_score: 0.9 }], usage: { total_tokens: 11 } });
  });

  it("turns a FastAPI error body into a status error with Jina's message", async () => {
    const up = await serve((_, response) => json(response, 422, { detail: [{ loc: ['body', 'documents'], msg: 'Field required' }] }));
    await expect(adapter.rerank(request, target(up), context)).rejects.toMatchObject({
      failure: 'status',
      message: 'upstream answered 422: body.documents: Field required',
      details: { status: 422 },
    });
  });
});

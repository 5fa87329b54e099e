import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { readJson, readSimStats } from '../test-support.testing.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are yellow.'];
const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: 'Bearer sim' }) =>
  fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('POST /v2/rerank (Cohere)', () => {
  it('answers in the v2 shape: scores best first, an id, billed search units', async () => {
    const response = await post('/v2/rerank', { model: 'sim-rerank', query: 'capital of France', documents, top_n: 2 });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      id: expect.any(String),
      results: [
        { index: 1, relevance_score: 1 },
        { index: 0, relevance_score: 2 / 3 },
      ],
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    });
  });

  it('answers a status knob with a Cohere error body and Retry-After', async () => {
    const response = await post('/v2/rerank', { model: 'sim-rerank@status=429,retry_after=2', query: 'q', documents });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await readJson(response)).toEqual({ id: expect.any(String), message: expect.stringContaining('per minute request limit') });
  });

  it.each([
    ['an empty document list', { model: 'sim-rerank', query: 'q', documents: [] }, 'list of documents must not be empty'],
    ['a blank query', { model: 'sim-rerank', query: ' ', documents }, 'query must not be empty'],
    ['a top_n of 0', { model: 'sim-rerank', query: 'q', documents, top_n: 0 }, 'top_n must be at least 1'],
    ['an unknown knob', { model: 'sim-rerank@colour=red', query: 'q', documents }, "Unknown simulator knob 'colour'"],
  ])('refuses %s with 400', async (_, body, message) => {
    const response = await post('/v2/rerank', body);
    expect(response.status).toBe(400);
    expect((await readJson(response)).message).toContain(message);
  });

  it('refuses a request without a key', async () => {
    const response = await post('/v2/rerank', { model: 'sim-rerank', query: 'q', documents }, {});
    expect(response.status).toBe(401);
  });
});

describe('POST /v1/rerank (Jina)', () => {
  it('answers with the model, documents and token usage, and records what it received', async () => {
    const response = await post('/v1/rerank', { model: 'sim-rerank@latency=0', query: 'capital of France', documents });
    expect(await readJson(response)).toEqual({
      model: 'sim-rerank',
      results: [
        { index: 1, relevance_score: 1, document: { text: documents[1] } },
        { index: 0, relevance_score: 2 / 3, document: { text: documents[0] } },
        { index: 2, relevance_score: 0, document: { text: documents[2] } },
      ],
      usage: { total_tokens: 3 + 7 + 7 + 4 },
    });
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ query: 'capital of France' });
  });

  it('leaves the documents out when asked to', async () => {
    const body = await readJson(
      await post('/v1/rerank', { model: 'sim-rerank', query: 'paris', documents, return_documents: false, top_n: 1 }),
    );
    expect(body.results).toEqual([{ index: 1, relevance_score: 1 }]);
  });

  it('answers a status knob with a Jina error body', async () => {
    const response = await post('/v1/rerank', { model: 'sim-rerank@status=503', query: 'q', documents });
    expect(response.status).toBe(503);
    expect(await readJson(response)).toEqual({ detail: 'internal server error' });
  });

  it('sends a truncated body when malformed is asked', async () => {
    const response = await post('/v1/rerank', { model: 'sim-rerank@malformed=1', query: 'q', documents });
    expect(response.status).toBe(200);
    await expect(response.clone().json()).rejects.toThrow();
  });
});

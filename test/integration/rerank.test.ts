import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { rerankSimCatalog } from '../support/rerank-sim-catalog.js';

const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are rich in potassium.'];
const query = 'What is the capital of France?';
const PER_SEARCH = '{ request: 0.002 }';

describe.each(testEngines)('rerank on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const rerank = (body: Record<string, unknown>, key = gw.managementKey, headers: Record<string, string> = {}) =>
    call(gw, 'POST', '/rerank', { key, body: { query, documents, ...body }, headers });
  const simCalls = async () => {
    const { requests } = await readSimStats(sim.url);
    return ((requests['/v2/rerank'] as number | undefined) ?? 0) + ((requests['/v1/rerank'] as number | undefined) ?? 0);
  };

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = rerankSimCatalog(sim.url, [
      { id: 'sim/cohere', endpoints: [{ provider: 'cohere-a', upstream: 'sim-rerank', pricing: PER_SEARCH }] },
      { id: 'sim/jina', endpoints: [{ provider: 'jina-a', upstream: 'sim-rerank', pricing: '{ prompt: 0.0000001 }' }] },
      { id: 'sim/pricey', endpoints: [{ provider: 'cohere-a', upstream: 'sim-rerank', pricing: '{ request: 0.01 }' }] },
      {
        id: 'sim/flaky',
        endpoints: [
          { provider: 'cohere-a', upstream: 'sim-rerank@status=503', pricing: PER_SEARCH },
          { provider: 'jina-a', upstream: 'sim-rerank', pricing: PER_SEARCH },
        ],
      },
      {
        id: 'sim/broken',
        endpoints: [
          { provider: 'cohere-a', upstream: 'sim-rerank@malformed=1', pricing: PER_SEARCH },
          { provider: 'cohere-b', upstream: 'sim-rerank', pricing: PER_SEARCH },
        ],
      },
      {
        id: 'sim/down',
        endpoints: [
          { provider: 'cohere-a', upstream: 'sim-rerank@status=500', pricing: PER_SEARCH },
          { provider: 'jina-a', upstream: 'sim-rerank@status=502', pricing: PER_SEARCH },
        ],
      },
      {
        id: 'sim/refused',
        endpoints: [
          { provider: 'cohere-a', upstream: 'sim-rerank@status=400', pricing: PER_SEARCH },
          { provider: 'cohere-b', upstream: 'sim-rerank', pricing: PER_SEARCH },
        ],
      },
      { id: 'sim/limited', endpoints: [{ provider: 'cohere-a', upstream: 'sim-rerank@status=429', pricing: PER_SEARCH }] },
      { id: 'sim/unavailable', endpoints: [{ provider: 'jina-a', upstream: 'sim-rerank@status=503', pricing: PER_SEARCH }] },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('answers in the spec 4.4 shape through a Cohere endpoint, priced per search unit', async () => {
    const res = await rerank({ model: 'sim/cohere' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^gen-\d+-[0-9a-f]+$/),
      model: 'sim/cohere',
      provider: 'cohere-a',
      results: [
        // The simulator scores the share of query words a document holds: 5 of 6, 4 of 6, none.
        { index: 1, relevance_score: 5 / 6, document: { text: documents[1] } },
        { index: 0, relevance_score: 4 / 6, document: { text: documents[0] } },
        { index: 2, relevance_score: 0, document: { text: documents[2] } },
      ],
      usage: { search_units: 1, total_tokens: expect.any(Number), cost: 0.002 },
    });
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual({ model: 'sim-rerank', query, documents });
  });

  it('returns the top_n most relevant, asking the provider for no documents back (Jina), priced per token', async () => {
    const res = await rerank({ model: 'sim/jina', top_n: 1 });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([{ index: 1, relevance_score: 5 / 6, document: { text: documents[1] } }]);
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ top_n: 1, return_documents: false });
    const { search_units, total_tokens, cost } = res.body.usage;
    expect(search_units).toBe(1);
    expect(cost).toBeCloseTo(total_tokens * 0.0000001, 12);
  });

  it('records a ledger row like chat’s, with api_type rerank, and charges the key', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'ranker', limit: 1 } });
    const res = await rerank({ model: 'sim/cohere' }, created.body.key);
    const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: created.body.key });
    expect(gen.status).toBe(200);
    expect(gen.body.data).toMatchObject({
      id: res.body.id,
      api_type: 'rerank',
      model: 'sim/cohere',
      provider_name: 'cohere-a',
      status: 'success',
      streamed: false,
      total_cost: 0.002,
      tokens_prompt: res.body.usage.total_tokens,
      tokens_completion: 0,
      upstream_id: expect.any(String),
      routing: { search_units: 1 },
      usage_estimated: true,
    });
    expect((await call(gw, 'GET', '/key', { key: created.body.key })).body.data.usage).toBeCloseTo(0.002, 12);
  });

  it('ranks with the in-process BM25 model: no upstream call, scores within 0..1, free', async () => {
    const res = await rerank({ model: 'local/bm25' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'local/bm25', provider: 'gateway', usage: { search_units: 1, cost: 0 } });
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual([1, 0, 2]);
    for (const r of res.body.results) expect(r.relevance_score).toBeGreaterThanOrEqual(0);
    expect(res.body.results[0].relevance_score).toBeLessThan(1);
    expect(await simCalls()).toBe(0);
  });

  describe('provider preferences', () => {
    it('serves from the providers provider.only allows, calling no other', async () => {
      const res = await rerank({ model: 'sim/flaky', provider: { only: ['jina-a'] } });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('jina-a');
      expect(await simCalls()).toBe(1);
    });

    it('tries provider.order first', async () => {
      const res = await rerank({ model: 'sim/broken', provider: { order: ['cohere-b'] } });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('cohere-b');
      expect(await simCalls()).toBe(1);
    });

    it('answers 404 naming the preference that removed the last endpoint', async () => {
      const res = await rerank({ model: 'sim/flaky', provider: { ignore: ['cohere-a', 'jina-a'] } });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toContain('provider.ignore removed the last candidate');
      expect(await simCalls()).toBe(0);
    });
  });

  describe('fallbacks', () => {
    it('moves to the next endpoint after a 5xx, and the ledger lists both attempts', async () => {
      const res = await rerank({ model: 'sim/flaky' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('jina-a');
      const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
      expect(gen.body.data.provider_responses.map((p: { provider_name: string; status: number }) => [p.provider_name, p.status])).toEqual([
        ['cohere-a', 503],
        ['jina-a', 200],
      ]);
    });

    it('moves on after a malformed answer', async () => {
      const res = await rerank({ model: 'sim/broken' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('cohere-b');
    });

    it('returns a request error (4xx) without trying another endpoint', async () => {
      const res = await rerank({ model: 'sim/refused' });
      expect(res.status).toBe(400);
      expect(await simCalls()).toBe(1);
    });

    it('says 502 naming the provider when every attempt fails', async () => {
      const res = await rerank({ model: 'sim/down' });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toContain('Provider jina-a failed');
      expect(res.body.error.metadata.attempts.map((a: { provider: string }) => a.provider)).toEqual(['cohere-a', 'jina-a']);
      expect(res.body.error.metadata.raw).toEqual({ detail: 'internal server error' });
    });

    it.each([
      ['sim/limited', 429],
      ['sim/unavailable', 503],
    ])('maps %s to %i', async (model, status) => {
      const res = await rerank({ model });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(status);
    });
  });

  it('refuses a spent key with 402 before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.015 } });
    expect((await rerank({ model: 'sim/pricey' }, created.body.key)).status).toBe(200);
    const before = await simCalls();
    // $0.005 is left: a second $0.01 search does not fit, and is refused saying what is left.
    const tooDear = await rerank({ model: 'sim/pricey' }, created.body.key);
    expect(tooDear.status).toBe(402);
    expect(tooDear.body.error.message).toBe(
      "This request can cost up to $0.01, more than the $0.005 left of the API key's spending limit once the requests in flight are counted",
    );
    expect(tooDear.body.error.metadata).toEqual({ limit: 'api_key', required_usd: 0.01, available_usd: 0.005 });
    // The limit lowered below what was spent: spent, whatever the request.
    await call(gw, 'PATCH', `/keys/${created.body.data.hash}`, { key: gw.managementKey, body: { limit: 0.005 } });
    const refused = await rerank({ model: 'sim/cohere' }, created.body.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe('API key spending limit of $0.005 in total is reached');
    expect(await simCalls()).toBe(before);
  });

  it('answers 404 for an unknown model, and 401 without a key', async () => {
    const res = await rerank({ model: 'nobody/nothing' });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Model nobody/nothing does not exist or is not enabled on this gateway');
    expect((await call(gw, 'POST', '/rerank', { body: { model: 'sim/cohere', query, documents } })).status).toBe(401);
  });

  it('refuses a chat model for rerank, and a rerank model for chat, naming the right endpoint', async () => {
    const wrong = await rerank({ model: 'sim/chat' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Model sim/chat is a chat model: send it to POST /chat/completions');
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'local/bm25', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(400);
    expect(chat.body.error.message).toBe('Model local/bm25 is a rerank model: send it to POST /rerank');
    expect(await simCalls()).toBe(0);
  });

  // JSON leaves out a field set to undefined: that is how a field goes missing here.
  it.each([
    ['a missing query', { query: undefined }, 'query is required'],
    ['a missing model', { model: undefined }, 'model is required'],
    ['an empty document list', { documents: [] }, 'documents must have at least 1 item'],
    ['a document that is not a string', { documents: ['a', 2] }, 'documents[1] must be of type string'],
    ['a top_n of 0', { top_n: 0 }, 'top_n must be >= 1'],
    ['a fractional top_n', { top_n: 1.5 }, 'top_n must be of type integer'],
    ['unknown provider preferences', { provider: { colour: 'red' } }, 'provider has an unknown property "colour"'],
  ])('refuses %s with a 400 naming the field and rule', async (_, over, message) => {
    const res = await rerank({ model: 'sim/cohere', ...over });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 400, message });
    expect(await simCalls()).toBe(0);
  });
});

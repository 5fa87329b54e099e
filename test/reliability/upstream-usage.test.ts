import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedRequest, startTestUpstream, type TestUpstream } from '../../src/providers/shared/upstream-server.testing.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { readSse } from '../support/read-sse.js';
import { rerankSimCatalog } from '../support/rerank-sim-catalog.js';
import { simCatalog } from '../support/sim-gateway.js';
import { jobEnded, ledgerRows, submitAccepted } from '../support/video-jobs.js';
import { VIDEO_SECOND, videoSimCatalog } from '../support/video-sim-catalog.js';

/**
 * Upstreams that report usage the gateway cannot bill (the simulator's
 * `usage` knob): negative, not whole, not numbers, not finite, impossible,
 * or none at all. The answer still reaches the client, is billed by the
 * gateway's own count at a finite cost ≥ 0, and its generation says the
 * usage is estimated; the key's usage only grows, by what was answered.
 */
const PRICING = { prompt: 0.000001, completion: 0.000002, input_cache_read: 0.0000001, internal_reasoning: 0.00001 };
const MODELS: Record<string, string> = {
  'sim/sane': 'sim-model',
  'sim/negative-cache': 'sim-model@usage=cached_tokens:-1000000000',
  'sim/huge': 'sim-model@usage=prompt_tokens:1e308;completion_tokens:1e308;total_tokens:1e308',
  'sim/text': 'sim-model@usage=prompt_tokens:abc;completion_tokens:abc',
  'sim/none': 'sim-model@usage=none',
  'sim/fraction': 'sim-model@usage=prompt_tokens:12.5',
  'sim/inflated': 'sim-model@usage=completion_tokens:50000',
  'sim/beyond-window': 'sim-model@usage=prompt_tokens:500000',
  'sim/reasoning': 'sim-model@usage=reasoning_tokens:100000',
};
const messages = [{ role: 'user', content: 'Say something short about billing.' }];

describe.each(testEngines)('upstream usage figures checked before billing, on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      Object.entries(MODELS).map(([id, upstream]) => ({
        id,
        endpoints: [{ provider: 'alpha', upstream, pricing: PRICING, contextLength: 128_000 }],
      })),
    );
    gw = await startGateway(engine, { catalog });
    truth = await complete('sim/sane', (await newKey()).key);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  const newKey = async () =>
    (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'payer', limit: 100 } })).body as {
      key: string;
      data: { hash: string };
    };
  const keyUsage = async (hash: string) => (await call(gw, 'GET', `/keys/${hash}`, { key: gw.managementKey })).body.data.usage as number;
  const generation = async (id: string, key: string) => (await call(gw, 'GET', `/generation?id=${id}`, { key })).body.data;

  async function complete(model: string, key: string) {
    const res = await call(gw, 'POST', '/chat/completions', { key, body: { model, messages } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  async function stream(model: string, key: string) {
    const response = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages, stream: true }),
    });
    expect(response.status).toBe(200);
    const { chunks, done } = await readSse(response);
    expect(done).toBe(true);
    const last = chunks.at(-1);
    expect(last.error).toBeUndefined();
    return { id: last.id as string, usage: last.usage, content: chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('') };
  }

  // What the same request costs when the upstream tells the truth.
  let truth: { usage: { prompt_tokens: number; completion_tokens: number; cost: number } };

  it('bills sane figures as reported, not estimated', async () => {
    const { key } = await newKey();
    const body = await complete('sim/sane', key);
    expect(body.usage).toMatchObject({ prompt_tokens: truth.usage.prompt_tokens, completion_tokens: truth.usage.completion_tokens });
    expect(await generation(body.id, key)).toMatchObject({ usage_estimated: false, total_cost: body.usage.cost });
  });

  /** The billed usage is whole counts ≥ 0 near the truth, at a finite cost ≥ 0 the key is charged, and the generation says so. */
  async function expectEstimated(id: string, usage: Record<string, any>, key: string, hash: string) {
    for (const figure of [usage.prompt_tokens, usage.completion_tokens, usage.total_tokens])
      expect(Number.isSafeInteger(figure) && figure >= 0).toBe(true);
    expect(usage.prompt_tokens_details?.cached_tokens ?? 0).toBeLessThanOrEqual(usage.prompt_tokens);
    expect(usage.completion_tokens_details?.reasoning_tokens ?? 0).toBeLessThanOrEqual(usage.completion_tokens);
    expect(typeof usage.cost).toBe('number');
    expect(usage.cost).toBeGreaterThan(0);
    expect(usage.cost).toBeLessThan(truth.usage.cost * 5);
    const row = await generation(id, key);
    expect(row).toMatchObject({
      usage_estimated: true,
      total_cost: usage.cost,
      tokens_prompt: usage.prompt_tokens,
      tokens_completion: usage.completion_tokens,
    });
    expect(await keyUsage(hash)).toBeCloseTo(usage.cost, 12);
  }

  it.each([
    ['cached tokens of -1000000000 (was $900 for a 15-token answer)', 'sim/negative-cache'],
    ['1e308 tokens (was a cost of null)', 'sim/huge'],
    ['"abc" tokens (was a 500 after a successful answer)', 'sim/text'],
    ['no usage (was billed $0)', 'sim/none'],
    ['a fractional prompt', 'sim/fraction'],
    ['a completion far beyond what its text could hold', 'sim/inflated'],
    ['a prompt beyond the context window', 'sim/beyond-window'],
    ['more reasoning than completion', 'sim/reasoning'],
  ])('answers and bills a local count when the upstream reports %s', async (_, model) => {
    const { key, data } = await newKey();
    const body = await complete(model, key);
    expect(body.choices[0].message.content).toContain('This is a simulated reply.');
    await expectEstimated(body.id, body.usage, key, data.hash);
  });

  it.each([
    ['cached tokens of -1000000000', 'sim/negative-cache'],
    ['1e308 tokens', 'sim/huge'],
    ['"abc" tokens', 'sim/text'],
    ['no usage', 'sim/none'],
    ['a completion far beyond what its text could hold', 'sim/inflated'],
  ])('streams the answer and bills a local count when the upstream reports %s', async (_, model) => {
    const { key, data } = await newKey();
    const streamed = await stream(model, key);
    expect(streamed.content).toContain('This is a simulated reply.');
    await expectEstimated(streamed.id, streamed.usage, key, data.hash);
  });

  it('never lowers a key’s usage, whatever its upstreams report', async () => {
    const { key, data } = await newKey();
    let before = 0;
    for (const model of Object.keys(MODELS)) {
      await complete(model, key);
      await stream(model, key);
      const after = await keyUsage(data.hash);
      expect(after).toBeGreaterThan(before);
      before = after;
    }
  });
});

/**
 * Rerankers that report impossible search units or tokens: billed by the
 * gateway's count (one search unit per started 100 documents, four
 * characters a token), marked estimated.
 */
describe.each(testEngines)('reranker usage figures checked before billing, on $name', (engine) => {
  let upstream: TestUpstream;
  let gw: RunningGateway;
  const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.'];
  const scores = documents.map((_, index) => ({ index, relevance_score: 1 - index / 10 }));

  // Each model's upstream name says what it reports.
  const answer = ({ path, body }: ReceivedRequest, response: ServerResponse) => {
    const model = (body as { model: string }).model;
    const figure = JSON.parse(model.slice(model.indexOf(':') + 1)) as unknown;
    const payload = path.startsWith('/v2/')
      ? { id: 'rr-1', results: scores, meta: { billed_units: { search_units: figure } } }
      : { model, results: scores, usage: { total_tokens: figure } };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  };

  beforeAll(async () => {
    upstream = await startTestUpstream(answer);
    gw = await startGateway(engine, {
      catalog: rerankSimCatalog(upstream.origin, [
        { id: 'rr/units-sane', endpoints: [{ provider: 'cohere-a', upstream: 'units:1', pricing: '{ request: 0.002 }' }] },
        { id: 'rr/units-huge', endpoints: [{ provider: 'cohere-a', upstream: 'units:1000000000', pricing: '{ request: 0.002 }' }] },
        { id: 'rr/units-infinite', endpoints: [{ provider: 'cohere-a', upstream: 'units:1e308', pricing: '{ request: 0.002 }' }] },
        { id: 'rr/tokens-sane', endpoints: [{ provider: 'jina-a', upstream: 'tokens:20', pricing: '{ prompt: 0.0000001 }' }] },
        { id: 'rr/tokens-huge', endpoints: [{ provider: 'jina-a', upstream: 'tokens:1000000000000', pricing: '{ prompt: 0.0000001 }' }] },
      ]),
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  async function rerank(model: string) {
    const { key, data } = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'ranker', limit: 100 } })).body;
    const res = await call(gw, 'POST', '/rerank', { key, body: { model, query: 'capital of France', documents } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = (await call(gw, 'GET', `/generation?id=${res.body.id}`, { key })).body.data;
    const usage = (await call(gw, 'GET', `/keys/${data.hash}`, { key: gw.managementKey })).body.data.usage;
    return { body: res.body, row, usage };
  }

  // Cohere reports no tokens and Jina no search units: the gateway counts those, so their usage is estimated either way.
  it('bills sane search units and tokens as reported', async () => {
    expect((await rerank('rr/units-sane')).row).toMatchObject({ total_cost: 0.002 });
    expect((await rerank('rr/tokens-sane')).row).toMatchObject({ tokens_prompt: 20, total_cost: 0.000002 });
  });

  it.each([
    ['a billion search units for two documents', 'rr/units-huge'],
    ['1e308 search units', 'rr/units-infinite'],
  ])('bills one search unit when the reranker reports %s', async (_, model) => {
    const { body, row, usage } = await rerank(model);
    expect(body.usage).toMatchObject({ search_units: 1, cost: 0.002 });
    expect(row).toMatchObject({ usage_estimated: true, total_cost: 0.002 });
    expect(usage).toBeCloseTo(0.002, 12);
  });

  it('bills its own token count when the reranker reports more tokens than the documents hold', async () => {
    const { body, row, usage } = await rerank('rr/tokens-huge');
    expect(body.usage.total_tokens).toBeLessThan(100);
    expect(row).toMatchObject({ usage_estimated: true, tokens_prompt: body.usage.total_tokens });
    expect(usage).toBeCloseTo(body.usage.total_tokens * 0.0000001, 12);
  });
});

/**
 * A video upstream (OpenAI's Videos API) that reports more seconds than were
 * asked, or than the model makes: billed for the seconds asked (else the
 * model's default), marked estimated.
 */
describe.each(testEngines)('video seconds checked before billing, on $name', (engine) => {
  let upstream: TestUpstream;
  let gw: RunningGateway;
  let made = 0;

  // Done at once, with the seconds the upstream model's name says.
  const answer = ({ method, body }: ReceivedRequest, response: ServerResponse) => {
    if (method !== 'POST') return void response.writeHead(404).end();
    const model = (body as { model: string }).model;
    const seconds = model.slice(model.indexOf('seconds=') + 'seconds='.length);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: `video_${++made}`, object: 'video', status: 'completed', seconds }));
  };

  beforeAll(async () => {
    upstream = await startTestUpstream(answer);
    const models = ['8', '1000000', '1e308'].map((seconds) => ({ id: `vid/${seconds}`, upstream: `sora-2@seconds=${seconds}` }));
    gw = await startGateway(engine, {
      catalog: videoSimCatalog(upstream.origin, models),
      videos: { tickMs: 20, intervalMs: 20, leaseMs: 2_000 },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  async function video(model: string, duration?: number) {
    const { key, data } = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'director', limit: 100 } })).body;
    const job = await submitAccepted(gw, { model, prompt: 'a cat', ...(duration !== undefined ? { duration } : {}) }, key);
    const done = await jobEnded(gw, job.id, key);
    expect(done.body.status).toBe('completed');
    const [row] = await ledgerRows(gw, done.body.generation_id);
    const usage = (await call(gw, 'GET', `/keys/${data.hash}`, { key: gw.managementKey })).body.data.usage;
    return { cost: done.body.usage.cost as number, row: row!, usage };
  }

  it('bills the seconds reported when they are what was asked', async () => {
    const { cost, row } = await video('vid/8', 8);
    expect(cost).toBeCloseTo(8 * VIDEO_SECOND, 12);
    expect(row.usage_estimated).toBe(0);
  });

  it.each([
    ['a million seconds for an 8-second video', 'vid/1000000', 8, 8],
    ['1e308 seconds, with no duration asked', 'vid/1e308', undefined, 4],
  ])('bills the seconds asked when the upstream reports %s', async (_, model, duration, billed) => {
    const { cost, row, usage } = await video(model, duration);
    expect(cost).toBeCloseTo(billed * VIDEO_SECOND, 12);
    expect(row).toMatchObject({ usage_estimated: 1 });
    expect(row.total_cost).toBeCloseTo(billed * VIDEO_SECOND, 12);
    expect(usage).toBeCloseTo(billed * VIDEO_SECOND, 12);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { simVector } from '../../src/sim/embeddings/sim-vectors.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const texts = ['The quick brown fox', 'jumps over the lazy dog'];

/** A base64 embedding as OpenAI's clients decode it: little-endian float32s. */
const decode = (text: string) => {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
};

describe.each(testEngines)('embeddings on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const embed = (body: Record<string, unknown>, key = gw.managementKey, headers: Record<string, string> = {}) =>
    call(gw, 'POST', '/embeddings', { key, body: { input: texts, ...body }, headers });
  const simCalls = async () => {
    const { requests } = await readSimStats(sim.url);
    // Every embeddings path has "embed" in it: /v1/embeddings, /v2/embed, /jina/v1/embeddings, …:batchEmbedContents.
    return Object.entries(requests as Record<string, number>)
      .filter(([path]) => /embed/i.test(path))
      .reduce((sum, [, n]) => sum + n, 0);
  };

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'embeddings', [
      { id: 'sim/openai-embed', endpoints: [{ provider: 'openai-a', upstream: 'sim-embed' }] },
      { id: 'sim/gemini-embed', endpoints: [{ provider: 'gemini-a', upstream: 'sim-embed' }] },
      { id: 'sim/cohere-embed', endpoints: [{ provider: 'cohere-a', upstream: 'sim-embed' }] },
      { id: 'sim/jina-embed', endpoints: [{ provider: 'jina-a', upstream: 'sim-embed' }] },
      { id: 'sim/pricey-embed', endpoints: [{ provider: 'openai-a', upstream: 'sim-embed', pricing: '{ prompt: 0.001 }' }] },
      {
        id: 'sim/flaky-embed',
        endpoints: [
          { provider: 'openai-a', upstream: 'sim-embed@status=503' },
          { provider: 'cohere-a', upstream: 'sim-embed' },
        ],
      },
      {
        id: 'sim/broken-embed',
        endpoints: [
          { provider: 'jina-a', upstream: 'sim-embed@malformed=1' },
          { provider: 'openai-b', upstream: 'sim-embed' },
        ],
      },
      {
        id: 'sim/mixed-embed',
        endpoints: [
          { provider: 'gemini-a', upstream: 'sim-embed' },
          { provider: 'openai-b', upstream: 'sim-embed' },
        ],
      },
      {
        id: 'sim/down-embed',
        endpoints: [
          { provider: 'gemini-a', upstream: 'sim-embed@status=500' },
          { provider: 'jina-a', upstream: 'sim-embed@status=502' },
        ],
      },
      {
        id: 'sim/refused-embed',
        endpoints: [
          { provider: 'openai-a', upstream: 'sim-embed@status=400' },
          { provider: 'openai-b', upstream: 'sim-embed' },
        ],
      },
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

  it('answers OpenAI’s list through an OpenAI endpoint, billed per input token as the provider counted them', async () => {
    const res = await embed({ model: 'sim/openai-embed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^gen-\d+-[0-9a-f]+$/),
      object: 'list',
      model: 'sim/openai-embed',
      provider: 'openai-a',
      data: texts.map((text, index) => ({ object: 'embedding', index, embedding: simVector(text) })),
      usage: { prompt_tokens: 9, total_tokens: 9, cost: 0.0000009 },
    });
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual({ model: 'sim-embed', input: texts, encoding_format: 'float' });
  });

  it.each([
    ['Gemini batchEmbedContents', 'sim/gemini-embed', 'gemini-a'],
    ['Cohere embed v2', 'sim/cohere-embed', 'cohere-a'],
    ['Jina', 'sim/jina-embed', 'jina-a'],
  ])('embeds through %s, with dimensions and input_type in its own words', async (_, model, provider) => {
    const res = await embed({ model, dimensions: 256, input_type: 'search_query' });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe(provider);
    expect(res.body.data).toEqual(texts.map((text, index) => ({ object: 'embedding', index, embedding: simVector(text, 256) })));
    expect(res.body.usage.prompt_tokens).toBeGreaterThan(0);
    const sent = (await readSimStats(sim.url)).lastRequestBody as Record<string, unknown>;
    if (provider === 'gemini-a')
      expect(sent).toMatchObject({ requests: [{ model: 'models/sim-embed', taskType: 'RETRIEVAL_QUERY', outputDimensionality: 256 }, {}] });
    if (provider === 'cohere-a')
      expect(sent).toEqual({ model: 'sim-embed', texts, input_type: 'search_query', embedding_types: ['float'], output_dimension: 256 });
    if (provider === 'jina-a')
      expect(sent).toEqual({ model: 'sim-embed', input: texts, embedding_type: 'float', task: 'retrieval.query', dimensions: 256 });
  });

  it('encodes base64 as OpenAI does (float32, little-endian), and takes a single string', async () => {
    const res = await embed({ model: 'sim/cohere-embed', input: 'hello world', encoding_format: 'base64' });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(decode(res.body.data[0].embedding)).toEqual(simVector('hello world'));
  });

  it('sends token arrays only to endpoints whose protocol takes them', async () => {
    const res = await embed({
      model: 'sim/mixed-embed',
      input: [
        [1, 2, 3],
        [4, 5],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('openai-b');
    expect(res.body.usage.prompt_tokens).toBe(5);
    const single = await embed({ model: 'sim/openai-embed', input: [7, 8, 9] });
    expect(single.body.data).toEqual([{ object: 'embedding', index: 0, embedding: simVector([7, 8, 9]) }]);
    const none = await embed({ model: 'sim/gemini-embed', input: [[1, 2]] });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('input: token arrays are read only by providers of the OpenAI protocol');
  });

  it('records a ledger row with api_type embeddings, and charges the key', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'embedder', limit: 1 } });
    const res = await embed({ model: 'sim/gemini-embed' }, created.body.key);
    expect(res.status).toBe(200);
    const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: created.body.key });
    expect(gen.body.data).toMatchObject({
      id: res.body.id,
      api_type: 'embeddings',
      model: 'sim/gemini-embed',
      provider_name: 'gemini-a',
      status: 'success',
      streamed: false,
      tokens_prompt: res.body.usage.prompt_tokens,
      tokens_completion: 0,
      total_cost: res.body.usage.cost,
      // Gemini reports no usage: the gateway counted the tokens.
      usage_estimated: true,
    });
    expect((await call(gw, 'GET', '/key', { key: created.body.key })).body.data.usage).toBeCloseTo(res.body.usage.cost, 12);
  });

  describe('fallbacks', () => {
    it('moves to the next endpoint after a 5xx, and the ledger lists both attempts', async () => {
      const res = await embed({ model: 'sim/flaky-embed' }, gw.managementKey, { 'x-service-metadata': 'enabled' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('cohere-a');
      expect(res.body.service_metadata).toBeDefined();
      const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
      expect(gen.body.data.provider_responses.map((p: { provider_name: string; status: number }) => [p.provider_name, p.status])).toEqual([
        ['openai-a', 503],
        ['cohere-a', 200],
      ]);
    });

    it('moves on after a malformed answer', async () => {
      const res = await embed({ model: 'sim/broken-embed' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('openai-b');
    });

    it('returns a request error (4xx) without trying another endpoint', async () => {
      const res = await embed({ model: 'sim/refused-embed' });
      expect(res.status).toBe(400);
      expect(await simCalls()).toBe(1);
    });

    it('says 502 naming the provider when every attempt fails, and records the failure', async () => {
      const res = await embed({ model: 'sim/down-embed' });
      expect(res.status).toBe(502);
      expect(res.body.error.metadata.attempts.map((a: { provider: string }) => a.provider)).toEqual(['gemini-a', 'jina-a']);
      expect(res.body.error.metadata.raw).toEqual({ detail: 'internal server error' });
    });
  });

  it('refuses with 402 what the key’s limit cannot cover, before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.001 } });
    // Two texts of four and five tokens at $0.001 a token: $0.009 held, more than the $0.001 limit.
    const res = await embed({ model: 'sim/pricey-embed' }, created.body.key);
    expect(res.status).toBe(402);
    expect(res.body.error.metadata).toMatchObject({ limit: 'api_key', available_usd: 0.001 });
    expect(await simCalls()).toBe(0);
  });

  it('lists embeddings models at /embeddings/models, and /models shows their type', async () => {
    const list = await call(gw, 'GET', '/embeddings/models', { key: gw.managementKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { id: string }) => m.id)).toContain('sim/openai-embed');
    expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain('sim/chat');
    expect(list.body.data[0].architecture.output_modalities).toEqual(['embeddings']);
    const paged = await call(gw, 'GET', '/embeddings/models?limit=2', { key: gw.managementKey });
    expect(paged.body.data).toHaveLength(2);
    expect(paged.body.links.next).toContain('/embeddings/models?offset=2&limit=2');
  });

  it('refuses a chat model for embeddings, and an embeddings model for chat, naming the right endpoint', async () => {
    const wrong = await embed({ model: 'sim/chat' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Model sim/chat is a chat model: send it to POST /chat/completions');
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'sim/openai-embed', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(400);
    expect(chat.body.error.message).toBe('Model sim/openai-embed is an embeddings model: send it to POST /embeddings');
  });

  it('answers 404 for an unknown model, and 401 without a key', async () => {
    expect((await embed({ model: 'nobody/nothing' })).status).toBe(404);
    expect((await call(gw, 'POST', '/embeddings', { body: { model: 'sim/openai-embed', input: 'x' } })).status).toBe(401);
  });

  // JSON leaves out a field set to undefined: that is how a field goes missing here.
  it.each([
    ['a missing input', { input: undefined }, 'input is required'],
    ['a missing model', { model: undefined }, 'model is required'],
    ['an empty string', { input: '' }, 'input does not match any allowed shape'],
    ['an empty list', { input: [] }, 'input does not match any allowed shape'],
    ['a multimodal input', { input: [{ content: [{ type: 'text', text: 'x' }] }] }, 'input does not match any allowed shape'],
    ['an unknown encoding', { encoding_format: 'int8' }, 'encoding_format must be one of "float", "base64"'],
    ['0 dimensions', { dimensions: 0 }, 'dimensions must be >= 1'],
    ['too many inputs', { input: Array.from({ length: 2049 }, () => 'x') }, 'input must have at most 2048 items'],
  ])('refuses %s with a 400 naming the field and rule', async (_, over, message) => {
    const res = await embed({ model: 'sim/openai-embed', ...over });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 400, message });
    expect(await simCalls()).toBe(0);
  });
});

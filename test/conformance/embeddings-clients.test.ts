import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { OpenAIEmbeddings } from '@langchain/openai';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { OpenRouter } from '@openrouter/sdk';
import { embed, embedMany } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simVector } from '../../src/sim/embeddings/sim-vectors.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const texts = ['The quick brown fox', 'jumps over the lazy dog'];
/** `sim/embed` answers from its one endpoint; `sim/flaky-embed`'s first endpoint answers 503, so its second (Cohere's protocol) serves. */
const MODELS = [
  ['sim/embed', 'openai-a'],
  ['sim/flaky-embed', 'cohere-a'],
] as const;

/**
 * The real clients against gateway + simulator, unchanged but for base URL
 * and key: every answer must parse with the client's own schemas, and the
 * vectors arrive as the simulator made them, floats or base64.
 */
describe.each(testEngines)('embeddings through the real clients on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'embeddings', [
      { id: 'sim/embed', endpoints: [{ provider: 'openai-a', upstream: 'sim-embed' }] },
      {
        id: 'sim/flaky-embed',
        endpoints: [
          { provider: 'openai-a', upstream: 'sim-embed@status=503' },
          { provider: 'cohere-a', upstream: 'sim-embed' },
        ],
      },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  /** The provider that served a generation, from the ledger. */
  const servedBy = async (id: string) => (await call(gw, 'GET', `/generation?id=${id}`, { key: gw.managementKey })).body.data.provider_name;

  describe.each(MODELS)('%s', (model, provider) => {
    it('openai: embeddings.create with floats and with base64 (the client’s default, decoded by it)', async () => {
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
      const floats = await openai.embeddings.create({ model, input: texts, encoding_format: 'float' });
      expect(floats.data.map((d) => d.embedding)).toEqual(texts.map((t) => simVector(t)));
      expect(floats.usage.prompt_tokens).toBeGreaterThan(0);
      const decoded = await openai.embeddings.create({ model, input: texts[0]! });
      expect(decoded.data[0]!.embedding).toEqual(simVector(texts[0]!));
      const raw = await openai.embeddings.create({ model, input: texts[0]!, encoding_format: 'base64' });
      expect(typeof raw.data[0]!.embedding).toBe('string');
      expect(await servedBy((floats as unknown as { id: string }).id)).toBe(provider);
    });

    it('the AI SDK with @ai-sdk/openai-compatible: embed and embedMany', async () => {
      const gateway = createOpenAICompatible({ name: 'gateway', baseURL: gw.baseUrl, apiKey: gw.managementKey });
      const one = await embed({ model: gateway.embeddingModel(model), value: texts[0]!, maxRetries: 0 });
      expect(one.embedding).toEqual(simVector(texts[0]!));
      expect(one.usage.tokens).toBeGreaterThan(0);
      const many = await embedMany({ model: gateway.embeddingModel(model), values: texts, maxRetries: 0 });
      expect(many.embeddings).toEqual(texts.map((t) => simVector(t)));
    });

    it('the AI SDK with @openrouter/ai-sdk-provider: embed and embedMany, with the provider and cost', async () => {
      const openrouter = createOpenRouter({ baseURL: gw.baseUrl, apiKey: gw.managementKey });
      const one = await embed({ model: openrouter.textEmbeddingModel(model), value: texts[0]!, maxRetries: 0 });
      expect(one.embedding).toEqual(simVector(texts[0]!));
      expect(one.providerMetadata?.openrouter).toMatchObject({ provider, usage: { cost: expect.any(Number) } });
      const many = await embedMany({ model: openrouter.textEmbeddingModel(model), values: texts, maxRetries: 0 });
      expect(many.embeddings).toEqual(texts.map((t) => simVector(t)));
    });

    it('LangChain: OpenAIEmbeddings embedQuery and embedDocuments', async () => {
      const embeddings = new OpenAIEmbeddings({ model, apiKey: gw.managementKey, configuration: { baseURL: gw.baseUrl }, maxRetries: 0 });
      expect(await embeddings.embedQuery(texts[0]!)).toEqual(simVector(texts[0]!));
      expect(await embeddings.embedDocuments(texts)).toEqual(texts.map((t) => simVector(t)));
    });

    it('@openrouter/sdk: embeddings.generate', async () => {
      const sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
      const result = await sdk.embeddings.generate({ requestBody: { model, input: texts } });
      if (typeof result === 'string') throw new Error(`expected JSON, got ${result}`);
      expect(result.data.map((d) => d.embedding)).toEqual(texts.map((t) => simVector(t)));
      expect(result.usage?.cost).toEqual(expect.any(Number));
    });
  });

  it('@openrouter/sdk: embeddings.listModels lists the embeddings models', async () => {
    const sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
    const list = await sdk.embeddings.listModels();
    expect(list.result.data.map((m) => m.id).sort()).toEqual(['sim/embed', 'sim/flaky-embed']);
  });
});

import { OpenRouter } from '@openrouter/sdk';
import { ModelsListResponse$inboundSchema } from '@openrouter/sdk/models';
import { ListEndpointsResponse$inboundSchema } from '@openrouter/sdk/models/operations';
import Fastify, { type FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../catalog/build-catalog.js';
import type { Catalog } from '../../catalog/types.js';
import { installErrorEnvelope } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { schemaErrorFormatter, validatorCompiler } from '../../http/validation.js';
import { type ModelsRoutesOptions, modelsRoutes } from './routes.js';

// Every built-in provider and a local server, so that every record the table can produce is parsed.
const catalog: Catalog = buildCatalog({
  env: {
    OPENAI_API_KEY: 'k',
    ANTHROPIC_API_KEY: 'k',
    GEMINI_API_KEY: 'k',
    MISTRAL_API_KEY: 'k',
    DEEPSEEK_API_KEY: 'k',
    XAI_API_KEY: 'k',
    GROQ_API_KEY: 'k',
    TOGETHER_API_KEY: 'k',
    FIREWORKS_API_KEY: 'k',
    OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1',
  },
  knownKinds: ['openai', 'anthropic', 'gemini'],
  localModels: { ollama: [{ id: 'llama3.2:3b' }] },
});

/** The router and fusion slugs, listed after the catalog's models. */
const ROUTERS = ['service/auto', 'service/pareto', 'service/switchyard', 'service/fusion'];
const listedIds = () => [...catalog.listModels().map((m) => m.id), ...ROUTERS];

async function modelsApp(options: Partial<ModelsRoutesOptions> = {}): Promise<FastifyInstance> {
  const app = Fastify({ schemaErrorFormatter });
  app.setValidatorCompiler(validatorCompiler);
  installErrorEnvelope(app, 1024);
  await app.register(modelsRoutes({ catalog, ...options }), { prefix: '/api/v1' });
  return app;
}

describe('GET /api/v1/models', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await modelsApp();
  });

  it('lists every model in the reference shape, which @openrouter/sdk parses', async () => {
    const response = await app.inject('/api/v1/models');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const parsed = ModelsListResponse$inboundSchema.parse(body);
    expect(parsed.totalCount).toBe(listedIds().length);
    expect(parsed.data.map((m) => m.id)).toEqual(listedIds());
    expect(body.links).toEqual({ next: null });
    expect(body.data.find((m: { id: string }) => m.id === 'openai/gpt-4o-mini')).toEqual({
      id: 'openai/gpt-4o-mini',
      canonical_slug: 'openai/gpt-4o-mini',
      name: 'OpenAI: GPT-4o-mini',
      created: 1_721_260_800,
      description: 'A small, cheap GPT-4o for high-volume tasks.',
      context_length: 128_000,
      architecture: {
        modality: 'text+image+file->text',
        input_modalities: ['text', 'image', 'file'],
        output_modalities: ['text'],
        tokenizer: 'GPT',
        instruct_type: null,
      },
      pricing: { prompt: '0.00000015', completion: '0.0000006', input_cache_read: '0.000000075' },
      top_provider: { context_length: 128_000, max_completion_tokens: 16_384, is_moderated: false },
      per_request_limits: null,
      supported_parameters: expect.arrayContaining(['temperature', 'tools', 'response_format']),
      default_parameters: null,
      supported_voices: null,
      links: { details: '/api/v1/models/openai/gpt-4o-mini/endpoints' },
      object: 'model',
      owned_by: 'openai',
    });
  });

  it('carries the fields the openai client reads', async () => {
    const body = (await app.inject('/api/v1/models')).json();
    expect(body.object).toBe('list');
    for (const m of body.data) {
      expect(m).toMatchObject({ id: expect.any(String), object: 'model', created: expect.any(Number), owned_by: expect.any(String) });
    }
  });

  it('shows a free local model as explicit zero prices', async () => {
    const body = (await app.inject('/api/v1/models')).json();
    expect(body.data.find((m: { id: string }) => m.id === 'ollama/llama3.2:3b')).toMatchObject({
      pricing: { prompt: '0', completion: '0' },
      context_length: null,
      owned_by: 'ollama',
    });
  });

  it('lists the router and fusion slugs after the models, with variable pricing and the union of their inputs and parameters', async () => {
    const body = (await app.inject('/api/v1/models')).json();
    const auto = body.data.find((m: { id: string }) => m.id === 'service/auto');
    expect(auto).toMatchObject({
      name: 'Auto Router',
      pricing: { prompt: '-1', completion: '-1' },
      architecture: { output_modalities: ['text'], input_modalities: expect.arrayContaining(['text', 'image']) },
      context_length: Math.max(...catalog.listModels().map((m) => m.contextLength ?? 0)),
      owned_by: 'service',
      links: { details: '/api/v1/models/service/auto/endpoints' },
    });
    expect(auto.supported_parameters).toEqual(expect.arrayContaining(['tools', 'temperature']));
    const endpoints = await app.inject('/api/v1/models/service/auto/endpoints');
    expect(endpoints.statusCode).toBe(200);
    expect(ListEndpointsResponse$inboundSchema.parse(endpoints.json()).data).toMatchObject({ id: 'service/auto', endpoints: [] });
  });

  it('lists no router when no chat model is served', async () => {
    const rerankOnly = buildCatalog({ env: {}, knownKinds: ['openai', 'local'] });
    const only = Fastify({ schemaErrorFormatter });
    only.setValidatorCompiler(validatorCompiler);
    installErrorEnvelope(only, 1024);
    await only.register(modelsRoutes({ catalog: rerankOnly }), { prefix: '/api/v1' });
    const ids = (await only.inject('/api/v1/models')).json().data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(rerankOnly.listModels().map((m) => m.id));
    expect(ids).not.toContain('service/auto');
    expect((await only.inject('/api/v1/models/service/auto/endpoints')).statusCode).toBe(404);
  });

  it('pages when offset or limit is given', async () => {
    const total = listedIds().length;
    const first = (await app.inject('/api/v1/models?offset=1&limit=2')).json();
    expect(first.data.map((m: { id: string }) => m.id)).toEqual(
      catalog
        .listModels()
        .slice(1, 3)
        .map((m) => m.id),
    );
    expect(first).toMatchObject({ total_count: total, links: { next: '/api/v1/models?offset=3&limit=2' } });
    const last = (await app.inject(`/api/v1/models?offset=${total - 1}&limit=2`)).json();
    expect(last).toMatchObject({ data: [{ id: listedIds()[total - 1] }], links: { next: null } });
    const refused = await app.inject('/api/v1/models?limit=0');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('limit');
  });

  it('runs the authentication hook it is given', async () => {
    const guarded = await modelsApp({
      requireKey: async (request) => {
        if (!request.headers.authorization) throw Errors.missingAuthentication();
      },
    });
    expect((await guarded.inject('/api/v1/models')).statusCode).toBe(401);
    expect((await guarded.inject('/api/v1/models/openai/gpt-4o/endpoints')).statusCode).toBe(401);
    expect((await guarded.inject({ url: '/api/v1/models', headers: { authorization: 'Bearer k' } })).statusCode).toBe(200);
  });
});

describe('GET /api/v1/models/:author/:slug/endpoints', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await modelsApp();
  });

  it('lists a model endpoint per provider in the reference shape, which @openrouter/sdk parses', async () => {
    const response = await app.inject('/api/v1/models/meta-llama/llama-3.3-70b-instruct/endpoints');
    expect(response.statusCode).toBe(200);
    const { data } = ListEndpointsResponse$inboundSchema.parse(response.json());
    expect(data).toMatchObject({ id: 'meta-llama/llama-3.3-70b-instruct', architecture: { tokenizer: 'Llama3', modality: 'text->text' } });
    expect(data.endpoints.map((e) => [e.tag, e.providerName, e.pricing.prompt, e.quantization])).toEqual([
      ['groq', 'Groq', '0.00000059', null],
      ['together', 'Together', '0.00000088', 'fp8'],
      ['fireworks', 'Fireworks', '0.0000009', null],
    ]);
    expect(data.endpoints[0]).toMatchObject({
      name: 'Groq | meta-llama/llama-3.3-70b-instruct',
      contextLength: 131_072,
      maxCompletionTokens: 32_768,
    });
  });

  it('shows conditional prices and implicit caching', async () => {
    const gemini = (await app.inject('/api/v1/models/google/gemini-2.5-pro/endpoints')).json().data.endpoints[0];
    expect(gemini.pricing).toEqual({
      prompt: '0.00000125',
      completion: '0.00001',
      overrides: [{ min_prompt_tokens: 200_000, prompt: '0.0000025', completion: '0.000015' }],
    });
    const gpt = (await app.inject('/api/v1/models/openai/gpt-4o/endpoints')).json().data.endpoints[0];
    const claude = (await app.inject('/api/v1/models/anthropic/claude-sonnet-4/endpoints')).json().data.endpoints[0];
    expect([gpt.supports_implicit_caching, claude.supports_implicit_caching]).toEqual([true, false]);
  });

  it('answers 404 in the error envelope for a model the catalog does not hold', async () => {
    const response = await app.inject('/api/v1/models/acme/nothing/endpoints');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 404, message: 'Model not found' } });
  });
});

describe('the real clients against /models', () => {
  let app: FastifyInstance;
  let baseURL: string;
  beforeAll(async () => {
    app = await modelsApp();
    baseURL = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/v1`;
  });
  afterAll(() => app.close());

  it('openai models.list() reads every model', async () => {
    const client = new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(listedIds());
  });

  it('@openrouter/sdk models.list() and endpoints.list() read them', async () => {
    const sdk = new OpenRouter({ apiKey: 'k', serverURL: baseURL, retryConfig: { strategy: 'none' } });
    const page = await sdk.models.list();
    expect(page.result.data.map((m) => m.id)).toEqual(listedIds());
    const endpoints = await sdk.endpoints.list({ author: 'x-ai', slug: 'grok-4' });
    expect(endpoints.data.endpoints[0]?.pricing.overrides).toEqual([
      { minPromptTokens: 128_000, prompt: '0.000006', completion: '0.00003' },
    ]);
  });
});

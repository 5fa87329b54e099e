import { describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config-schema.js';
import { buildCatalog } from './build-catalog.js';
import { CatalogError } from './catalog-error.js';

const OPENAI_ONLY = ['openai'];

const acmeConfig = (pricing: Record<string, number> = { prompt: 0.000001, completion: 0.000002 }): GatewayConfig => ({
  providers: [
    {
      id: 'acme',
      kind: 'openai',
      base_url: 'https://llm.acme.test/v1/',
      api_key: 'sk-acme',
      headers: { 'x-team': 'ml' },
      timeout_ms: 9_000,
    },
    { id: 'spare', kind: 'openai', base_url: 'http://10.0.0.2:8000/v1' },
  ],
  models: [
    {
      id: 'acme/chat',
      name: 'Acme Chat',
      context_length: 32_000,
      endpoints: [
        { provider: 'acme', upstream_model: 'chat-v2', pricing, supported_parameters: ['temperature', 'tools'] },
        { provider: 'spare', upstream_model: 'chat-v2-fp8', pricing: { prompt: 0, completion: 0 }, context_length: 8_192 },
      ],
    },
    // A model the built-in table knows keeps its description, date and modalities.
    {
      id: 'openai/gpt-4o-mini',
      endpoints: [{ provider: 'acme', upstream_model: 'gpt-4o-mini', pricing: { prompt: 1e-7, completion: 5e-7 } }],
    },
  ],
});

describe('buildCatalog from a config file', () => {
  it('holds exactly the declared providers and models, whatever the environment enables', () => {
    const catalog = buildCatalog({ config: acmeConfig(), env: { OPENAI_API_KEY: 'sk-real' }, knownKinds: OPENAI_ONLY });
    expect([...catalog.providers.keys()]).toEqual(['acme', 'spare']);
    expect(catalog.listModels().map((m) => m.id)).toEqual(['acme/chat', 'openai/gpt-4o-mini']);
    expect(catalog.getModel('openai/gpt-4o')).toBeUndefined();
  });

  it('fills what the config leaves out: defaults, inherited context length, built-in metadata', () => {
    const catalog = buildCatalog({ config: acmeConfig(), env: {}, knownKinds: OPENAI_ONLY });
    expect(catalog.providers.get('acme')).toMatchObject({ baseUrl: 'https://llm.acme.test/v1', timeoutMs: 9_000 });
    expect(catalog.providers.get('spare')?.timeoutMs).toBeGreaterThan(0);

    const chat = catalog.getModel('acme/chat');
    expect(chat).toMatchObject({ name: 'Acme Chat', description: '', created: 0, contextLength: 32_000 });
    expect(chat?.architecture).toEqual({ input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Other' });
    expect(chat?.endpoints.map((e) => e.contextLength)).toEqual([32_000, 8_192]);
    expect(chat?.endpoints[1]?.pricing).toEqual({ prompt: 0, completion: 0 });

    const mini = catalog.getModel('openai/gpt-4o-mini');
    expect(mini).toMatchObject({ name: 'OpenAI: GPT-4o-mini', created: 1_721_260_800, contextLength: 128_000 });
    expect(mini?.architecture.tokenizer).toBe('GPT');
    expect(mini?.endpoints[0]?.pricing).toEqual({ prompt: 1e-7, completion: 5e-7 });
  });

  it('accepts an endpoint priced per request only, its token prices being 0', () => {
    const catalog = buildCatalog({ config: acmeConfig({ request: 0.002 }), env: {}, knownKinds: OPENAI_ONLY });
    expect(catalog.getModel('acme/chat')?.endpoints[0]?.pricing).toEqual({ request: 0.002, prompt: 0, completion: 0 });
  });

  it('refuses an endpoint without a prompt, completion or request price, naming the model and endpoint', () => {
    const build = () => buildCatalog({ config: acmeConfig({ image: 0.01 }), env: {}, knownKinds: OPENAI_ONLY });
    expect(build).toThrow(CatalogError);
    expect(build).toThrow(
      'model "acme/chat" endpoint 0 (provider "acme", upstream model "chat-v2") has no prompt, completion or request price',
    );
  });

  it('marks every endpoint of a provider marked zdr, unless the endpoint says otherwise, and keeps the provider facts', () => {
    const config = acmeConfig();
    config.providers![0] = { ...config.providers![0]!, zdr: true, datacenters: ['DE', 'IE'], status_page_url: 'https://status.acme.test' };
    config.models![1]!.endpoints[0] = { ...config.models![1]!.endpoints[0]!, zdr: false };
    const catalog = buildCatalog({ config, env: {}, knownKinds: OPENAI_ONLY });
    expect(catalog.getModel('acme/chat')?.endpoints.map((e) => e.zdr)).toEqual([true, undefined]);
    expect(catalog.getModel('openai/gpt-4o-mini')?.endpoints[0]?.zdr).toBe(false);
    expect(catalog.providers.get('acme')?.facts).toEqual({
      zdr: true,
      datacenters: ['DE', 'IE'],
      statusPageUrl: 'https://status.acme.test',
    });
    expect(catalog.providers.get('spare')?.facts).toEqual({});
  });

  it('gives a config provider with a built-in id the built-in facts under its own', () => {
    const config: GatewayConfig = {
      providers: [{ id: 'openai', kind: 'openai', base_url: 'http://127.0.0.1:9/v1', headquarters: 'IE' }],
      models: [
        { id: 'openai/gpt-4o-mini', endpoints: [{ provider: 'openai', upstream_model: 'm', pricing: { prompt: 0, completion: 0 } }] },
      ],
    };
    const facts = buildCatalog({ config, env: {}, knownKinds: OPENAI_ONLY }).providers.get('openai')?.facts;
    expect(facts).toMatchObject({ headquarters: 'IE', statusPageUrl: 'https://status.openai.com' });
  });

  it('takes every routing fact of an endpoint and a model from the config, built-in scores replaced task by task', () => {
    const config = acmeConfig();
    config.models![0]!.endpoints[0] = {
      ...config.models![0]!.endpoints[0]!,
      quantization: 'fp8',
      data_collection: 'deny',
      zdr: true,
      distillable: false,
      supported_service_tiers: ['default', 'flex'],
      pricing: {
        prompt: 1e-6,
        completion: 2e-6,
        input_cache_read: 1e-7,
        input_cache_write_1h: 2e-6,
        overrides: [{ min_prompt_tokens: 100_000, prompt: 2e-6 }],
      },
    };
    config.models![0]!.scores = { coding: 0.9 };
    config.models![1]!.scores = { coding: 0.5 };
    const catalog = buildCatalog({ config, env: {}, knownKinds: OPENAI_ONLY });
    const chat = catalog.getModel('acme/chat');
    expect(chat?.endpoints[0]).toMatchObject({
      quantization: 'fp8',
      dataCollection: 'deny',
      zdr: true,
      distillable: false,
      supportedServiceTiers: ['default', 'flex'],
      pricing: { input_cache_write_1h: 2e-6, overrides: [{ min_prompt_tokens: 100_000, prompt: 2e-6 }] },
    });
    expect(chat?.endpoints[1]).not.toHaveProperty('quantization');
    expect(chat?.scores).toEqual({ coding: 0.9 });
    expect(catalog.getModel('openai/gpt-4o-mini')?.scores).toMatchObject({ coding: 0.5, general: 0.4 });
  });

  it('uses the built-in table when the config file declares neither providers nor models', () => {
    const catalog = buildCatalog({ config: {}, env: { OPENAI_API_KEY: 'sk-real' }, knownKinds: OPENAI_ONLY });
    expect([...catalog.providers.keys()]).toEqual(['openai']);
  });
});

describe('buildCatalog from the built-in table', () => {
  it('enables a provider when its key is set, with its public base URL and per-token prices', () => {
    const catalog = buildCatalog({ env: { OPENAI_API_KEY: 'sk-openai', MISTRAL_API_KEY: '  ' }, knownKinds: OPENAI_ONLY });
    expect([...catalog.providers.values()]).toEqual([
      {
        id: 'openai',
        name: 'OpenAI',
        kind: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'sk-openai',
        timeoutMs: 300_000,
        facts: expect.objectContaining({ privacyPolicyUrl: expect.stringMatching(/^https:\/\//), headquarters: 'US' }),
      },
    ]);
    const mini = catalog.getModel('openai/gpt-4o-mini');
    expect(mini?.endpoints).toEqual([
      expect.objectContaining({
        provider: 'openai',
        upstreamModel: 'gpt-4o-mini',
        pricing: { prompt: 0.00000015, completion: 0.0000006, input_cache_read: 0.000000075 },
        contextLength: 128_000,
      }),
    ]);
    expect(catalog.listModels().every((m) => m.id.startsWith('openai/'))).toBe(true);
  });

  it('gives a model that several providers host one endpoint per provider, in table order', () => {
    const env = { TOGETHER_API_KEY: 't', GROQ_API_KEY: 'g', FIREWORKS_API_KEY: 'f' };
    const llama = buildCatalog({ env, knownKinds: OPENAI_ONLY }).getModel('meta-llama/llama-3.3-70b-instruct');
    expect(llama?.endpoints.map((e) => [e.provider, e.upstreamModel])).toEqual([
      ['groq', 'llama-3.3-70b-versatile'],
      ['together', 'meta-llama/Llama-3.3-70B-Instruct-Turbo'],
      ['fireworks', 'accounts/fireworks/models/llama-v3p3-70b-instruct'],
    ]);
  });

  it('skips providers whose kind no adapter speaks yet, and adds them once it does', () => {
    const env = { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GOOGLE_API_KEY: 'g' };
    expect([...buildCatalog({ env, knownKinds: OPENAI_ONLY }).providers.keys()]).toEqual(['openai']);
    const later = buildCatalog({ env, knownKinds: ['openai', 'anthropic', 'gemini'] });
    expect([...later.providers.keys()]).toEqual(['openai', 'anthropic', 'google']);
    expect(later.providers.get('google')).toMatchObject({
      kind: 'gemini',
      apiKey: 'g',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    });
    expect(later.getModel('anthropic/claude-sonnet-4.5')?.endpoints[0]?.pricing.input_cache_write).toBe(0.00000375);
  });

  it('takes a base URL from the environment, and refuses one that is not a URL', () => {
    const env = { GROQ_API_KEY: 'g', GROQ_BASE_URL: 'https://proxy.internal/groq/v1/' };
    expect(buildCatalog({ env, knownKinds: OPENAI_ONLY }).providers.get('groq')?.baseUrl).toBe('https://proxy.internal/groq/v1');
    expect(() => buildCatalog({ env: { ...env, GROQ_BASE_URL: 'proxy.internal' }, knownKinds: OPENAI_ONLY })).toThrow(
      /GROQ_BASE_URL must be an http\(s\) URL/,
    );
  });

  it('adds local servers by base URL alone, their models free', () => {
    const catalog = buildCatalog({
      env: { OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1', VLLM_BASE_URL: 'http://gpu-box:8000/v1', VLLM_API_KEY: 'vk' },
      knownKinds: OPENAI_ONLY,
      localModels: { ollama: [{ id: 'llama3.2:3b' }], local: [{ id: 'Qwen/Qwen3-8B', contextLength: 40_960 }] },
    });
    expect(catalog.providers.get('ollama')).toMatchObject({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(catalog.providers.get('ollama')?.apiKey).toBeUndefined();
    expect(catalog.providers.get('local')?.apiKey).toBe('vk');
    expect(catalog.getModel('ollama/llama3.2:3b')?.endpoints).toEqual([
      { provider: 'ollama', upstreamModel: 'llama3.2:3b', pricing: { prompt: 0, completion: 0 } },
    ]);
    expect(catalog.getModel('local/Qwen/Qwen3-8B')).toMatchObject({
      contextLength: 40_960,
      endpoints: [{ upstreamModel: 'Qwen/Qwen3-8B' }],
    });
    expect(buildCatalog({ env: { OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1' }, knownKinds: [] }).providers.size).toBe(0);
  });
});

describe('Catalog.targetFor', () => {
  it('resolves an endpoint to where and how to call it', () => {
    const catalog = buildCatalog({ config: acmeConfig(), env: {}, knownKinds: OPENAI_ONLY });
    const model = catalog.getModel('acme/chat')!;
    expect(catalog.targetFor(model, model.endpoints[0]!)).toEqual({
      providerId: 'acme',
      kind: 'openai',
      baseUrl: 'https://llm.acme.test/v1',
      apiKey: 'sk-acme',
      headers: { 'x-team': 'ml' },
      upstreamModel: 'chat-v2',
      supportedParameters: ['temperature', 'tools'],
      timeoutMs: 9_000,
    });
    // No declared parameters means every parameter passes; no key means none is sent.
    expect(catalog.targetFor(model, model.endpoints[1]!)).toEqual({
      providerId: 'spare',
      kind: 'openai',
      baseUrl: 'http://10.0.0.2:8000/v1',
      upstreamModel: 'chat-v2-fp8',
      timeoutMs: 300_000,
    });
  });

  it('throws for an endpoint whose provider the catalog does not hold', () => {
    const catalog = buildCatalog({ config: acmeConfig(), env: {}, knownKinds: OPENAI_ONLY });
    const model = catalog.getModel('acme/chat')!;
    expect(() => catalog.targetFor(model, { ...model.endpoints[0]!, provider: 'gone' })).toThrow(CatalogError);
  });
});

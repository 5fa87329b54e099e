import { Model$inboundSchema } from '@openrouter/sdk/models';
import { describe, expect, it } from 'vitest';
import { toModelRecord } from '../api/models/model-record.js';
import { ConfigError } from '../config/config-error.js';
import { parseGatewayConfig } from '../config/load-gateway-config.js';
import { buildCatalog } from './build-catalog.js';
import { modelTask } from './model-task.js';

const KINDS = ['openai', 'cohere', 'jina', 'local'];

describe('the built-in rerank model', () => {
  it('serves local/bm25 from the gateway itself, free and without a key, once the local kind is known', () => {
    const catalog = buildCatalog({ env: {}, knownKinds: KINDS });
    const bm25 = catalog.getModel('local/bm25')!;
    expect(modelTask(bm25)).toBe('rerank');
    expect(bm25.endpoints).toEqual([{ provider: 'gateway', upstreamModel: 'bm25', pricing: { prompt: 0, completion: 0 } }]);
    expect(catalog.targetFor(bm25, bm25.endpoints[0]!)).toMatchObject({ kind: 'local', upstreamModel: 'bm25' });
    expect(catalog.listModels().map((m) => m.id)).toEqual(['local/bm25']);
    expect(buildCatalog({ env: {}, knownKinds: ['openai'] }).getModel('local/bm25')).toBeUndefined();
  });

  it('is listed by /models as text->rerank, which @openrouter/sdk parses', () => {
    const record = toModelRecord(buildCatalog({ env: {}, knownKinds: KINDS }).getModel('local/bm25')!, '/api/v1/models');
    expect(record.architecture.modality).toBe('text->rerank');
    expect(Model$inboundSchema.parse(record).architecture.outputModalities).toEqual(['rerank']);
  });
});

const config = (providers: string, type = '') =>
  parseGatewayConfig(
    `providers:\n${providers}\nmodels:\n  - id: acme/rerank\n${type}    endpoints:\n      - provider: acme\n        upstream_model: rerank-2\n        pricing: { request: 0.002 }\n`,
    'gateway.yaml',
    { knownKinds: KINDS },
    {},
  );

describe('rerank models in a config file', () => {
  it('declares a rerank model with `type: rerank`, priced per search unit with `request`', () => {
    const catalog = buildCatalog({
      config: config('  - { id: acme, kind: cohere, base_url: "https://api.cohere.com/v2" }', '    type: rerank\n'),
      env: {},
      knownKinds: KINDS,
    });
    const model = catalog.getModel('acme/rerank')!;
    expect(modelTask(model)).toBe('rerank');
    expect(model.endpoints[0]?.pricing).toEqual({ request: 0.002, prompt: 0, completion: 0 });
    // Only what the config declares: no built-in local/bm25 beside it.
    expect(catalog.getModel('local/bm25')).toBeUndefined();
  });

  it('makes a model chat when it states no type', () => {
    const catalog = buildCatalog({
      config: config('  - { id: acme, kind: openai, base_url: "https://x.test/v1" }'),
      env: {},
      knownKinds: KINDS,
    });
    expect(modelTask(catalog.getModel('acme/rerank')!)).toBe('chat');
  });

  it('needs no base URL for the in-process kind, and one for every other', () => {
    const catalog = buildCatalog({ config: config('  - { id: acme, kind: local }', '    type: rerank\n'), env: {}, knownKinds: KINDS });
    expect(catalog.providers.get('acme')).toMatchObject({ kind: 'local', baseUrl: '' });
    expect(() => config('  - { id: acme, kind: jina }')).toThrow(ConfigError);
    expect(() => config('  - { id: acme, kind: jina }')).toThrow('gateway.yaml:2:5: providers[0].base_url is required');
  });

  it('refuses an unknown type, naming the values', () => {
    expect(() => config('  - { id: acme, kind: local }', '    type: embed\n')).toThrow('models[0].type must be one of "chat", "rerank"');
  });
});

import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

export interface EmbeddingsSimModel {
  id: string;
  /** One endpoint per entry: the provider id, the simulator model (knobs included) and its input price per token. */
  endpoints: { provider: string; upstream: string; prompt?: number }[];
}

/**
 * A catalog of embeddings models on one simulator, written as a config file
 * so that tests go through the loader the server uses: `openai-*` providers
 * speak OpenAI's `/v1/embeddings`, `gemini-a` Gemini's batchEmbedContents,
 * `cohere-a` Cohere's `/v2/embed`, `jina-a` Jina's embeddings (the
 * simulator's `/jina/v1`). `sim/chat` is a chat model, for the wrong-endpoint checks.
 */
export function embeddingsSimCatalog(simUrl: string, models: EmbeddingsSimModel[], timeoutMs = 2_000): Catalog {
  const provider = (id: string, kind: string, path: string) => `  - { id: ${id}, kind: ${kind}, base_url: "${simUrl}${path}", api_key: sim-key, timeout_ms: ${timeoutMs} }`;
  const lines = [
    'providers:',
    provider('openai-a', 'openai', '/v1'),
    provider('openai-b', 'openai', '/v1'),
    provider('gemini-a', 'gemini', '/v1beta'),
    provider('cohere-a', 'cohere', '/v2'),
    provider('jina-a', 'jina', '/jina/v1'),
    'models:',
    '  - id: sim/chat',
    '    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]',
  ];
  for (const m of models) {
    lines.push(`  - id: ${m.id}`, '    type: embeddings', '    endpoints:');
    for (const e of m.endpoints) lines.push(`      - { provider: ${e.provider}, upstream_model: "${e.upstream}", pricing: { prompt: ${e.prompt ?? 0.0000001} } }`);
  }
  const config = parseGatewayConfig(lines.join('\n'), 'embeddings-test.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

export interface RerankSimModel {
  id: string;
  /** One endpoint per entry: the provider id, the simulator model (knobs included) and its YAML pricing. */
  endpoints: { provider: string; upstream: string; pricing: string }[];
}

/**
 * A catalog of rerank models on one simulator, written as a config file so
 * that tests go through the loader the server uses: `cohere-*` providers
 * speak Cohere's v2 (`/v2/rerank`), `jina-*` providers Jina's `/v1/rerank`,
 * and `gateway` is the in-process BM25 ranker serving `local/bm25`. `sim/chat`
 * is a chat model, for the wrong-endpoint checks.
 */
export function rerankSimCatalog(simUrl: string, models: RerankSimModel[], timeoutMs = 2_000): Catalog {
  const lines = [
    'providers:',
    ...['cohere-a', 'cohere-b'].map(
      (id) => `  - { id: ${id}, kind: cohere, base_url: "${simUrl}/v2", api_key: sim-key, timeout_ms: ${timeoutMs} }`,
    ),
    `  - { id: jina-a, kind: jina, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: ${timeoutMs} }`,
    `  - { id: openai-a, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: ${timeoutMs} }`,
    '  - { id: gateway, kind: local }',
    'models:',
    '  - id: local/bm25',
    '    type: rerank',
    '    endpoints: [{ provider: gateway, upstream_model: bm25, pricing: { request: 0 } }]',
    '  - id: sim/chat',
    '    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]',
  ];
  for (const m of models) {
    lines.push(`  - id: ${m.id}`, '    type: rerank', '    endpoints:');
    for (const e of m.endpoints) lines.push(`      - { provider: ${e.provider}, upstream_model: "${e.upstream}", pricing: ${e.pricing} }`);
  }
  const config = parseGatewayConfig(lines.join('\n'), 'rerank-test.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

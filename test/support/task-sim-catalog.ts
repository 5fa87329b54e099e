import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

export interface TaskSimModel {
  id: string;
  /**
   * One endpoint per entry: the provider id, the simulator model (knobs included), its pricing in YAML (default
   * `{ prompt: 0.0000001 }`) and any other fields of the endpoint, in YAML (`max_audio_seconds: 2`).
   */
  endpoints: { provider: string; upstream: string; pricing?: string; fields?: string }[];
}

/**
 * A catalog of models of one `type` (embeddings, image, speech, transcription) on one simulator,
 * written as a config file so that tests go through the loader the server
 * uses: `openai-*` providers speak OpenAI's API (`/v1`), `gemini-a` Gemini's,
 * `cohere-a` Cohere's v2, `jina-a` Jina's (the simulator's `/jina/v1`).
 * `sim/chat` is a chat model, for the wrong-endpoint checks.
 */
export function taskSimCatalog(
  simUrl: string,
  type: 'embeddings' | 'image' | 'speech' | 'transcription',
  models: TaskSimModel[],
  timeoutMs = 2_000,
): Catalog {
  const provider = (id: string, kind: string, path: string) =>
    `  - { id: ${id}, kind: ${kind}, base_url: "${simUrl}${path}", api_key: sim-key, timeout_ms: ${timeoutMs} }`;
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
    lines.push(`  - id: ${m.id}`, `    type: ${type}`, '    endpoints:');
    for (const e of m.endpoints)
      lines.push(
        `      - { provider: ${e.provider}, upstream_model: "${e.upstream}", pricing: ${e.pricing ?? '{ prompt: 0.0000001 }'}${e.fields ? `, ${e.fields}` : ''} }`,
      );
  }
  const config = parseGatewayConfig(lines.join('\n'), `${type}-test.yaml`, { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

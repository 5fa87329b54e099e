import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

export interface SimModel {
  id: string;
  /** The model's `scores` for the routing plugins (config key `scores`). */
  scores?: Record<string, number>;
  /**
   * One endpoint per entry: the provider id and the simulator model (knobs
   * included); `facts` are further endpoint keys of the config file
   * (pricing keys go in `pricing`).
   */
  endpoints: {
    provider: string;
    upstream: string;
    prompt?: number;
    completion?: number;
    supported?: string[];
    pricing?: Record<string, number>;
    facts?: Record<string, unknown>;
    contextLength?: number;
  }[];
}

/** Where the simulator serves each chat protocol. */
const SIM_BASE_PATHS = { openai: '/v1', anthropic: '/v1', gemini: '/v1beta' } as const;

/**
 * A catalog whose providers all point at one simulator, under different
 * provider ids and protocols (OpenAI by default), written as a config file so that tests go through the same
 * loader the server uses.
 */
export function simCatalog(
  simUrl: string,
  providers: (string | { id: string; kind: keyof typeof SIM_BASE_PATHS })[],
  models: SimModel[],
  timeoutMs = 5_000,
): Catalog {
  const lines = ['providers:'];
  for (const provider of providers) {
    const { id, kind } = typeof provider === 'string' ? { id: provider, kind: 'openai' as const } : provider;
    lines.push(
      `  - id: ${id}`,
      `    kind: ${kind}`,
      `    base_url: ${simUrl}${SIM_BASE_PATHS[kind]}`,
      '    api_key: sim-key',
      `    timeout_ms: ${timeoutMs}`,
    );
  }
  lines.push('models:');
  for (const m of models) {
    lines.push(`  - id: ${m.id}`);
    // JSON is YAML: objects go in flow style.
    if (m.scores) lines.push(`    scores: ${JSON.stringify(m.scores)}`);
    lines.push('    endpoints:');
    for (const e of m.endpoints) {
      lines.push(
        `      - provider: ${e.provider}`,
        `        upstream_model: "${e.upstream}"`,
        `        pricing: ${JSON.stringify({ prompt: e.prompt ?? 0.000001, completion: e.completion ?? 0.000002, ...e.pricing })}`,
      );
      if (e.supported) lines.push(`        supported_parameters: [${e.supported.join(', ')}]`);
      if (e.contextLength) lines.push(`        context_length: ${e.contextLength}`);
      for (const [key, value] of Object.entries(e.facts ?? {})) lines.push(`        ${key}: ${JSON.stringify(value)}`);
    }
  }
  const config = parseGatewayConfig(lines.join('\n'), 'test.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

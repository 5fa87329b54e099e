import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

/** USD per second of video of every test model, unless an endpoint says otherwise. */
export const VIDEO_SECOND = 0.1;

/** The simulator's video protocols under provider ids: OpenAI's Videos API, and Veo on the Gemini API under two ids. */
export type VideoSimProvider = 'openai-v' | 'google-v' | 'google-eu';

export interface VideoSimModel {
  id: string;
  /** Shorthand for one endpoint on openai-v. */
  upstream?: string;
  endpoints?: { provider: VideoSimProvider; upstream: string; price?: number; bySize?: Record<string, number> }[];
}

/**
 * Video models on one simulator, as a config file: each entry is a model id
 * and its endpoints' upstream models (knobs included); `sim/chat` is a chat
 * model, for the wrong-endpoint check.
 */
export function videoSimCatalog(simUrl: string, models: VideoSimModel[]): Catalog {
  const lines = [
    'providers:',
    `  - { id: openai-v, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 2000 }`,
    `  - { id: google-v, kind: gemini, base_url: "${simUrl}/v1beta", api_key: sim-key, timeout_ms: 2000 }`,
    `  - { id: google-eu, kind: gemini, base_url: "${simUrl}/v1beta", api_key: sim-key, timeout_ms: 2000 }`,
    'models:',
    '  - id: sim/chat',
    '    endpoints: [{ provider: openai-v, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]',
  ];
  for (const m of models) {
    const endpoints = m.endpoints ?? [{ provider: 'openai-v', upstream: m.upstream ?? '' }];
    lines.push(`  - id: ${m.id}`, '    type: video', '    endpoints:');
    for (const e of endpoints) {
      const bySize = e.bySize ? `, video_second_by_size: ${JSON.stringify(e.bySize)}` : '';
      lines.push(
        `      - { provider: ${e.provider}, upstream_model: "${e.upstream}", pricing: { video_second: ${e.price ?? VIDEO_SECOND}${bySize} } }`,
      );
    }
  }
  const config = parseGatewayConfig(lines.join('\n'), 'video-test.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';

/** USD per second of video of every test model. */
export const VIDEO_SECOND = 0.1;

/**
 * Video models on one simulator's OpenAI Videos API, as a config file: each
 * entry is a model id and its upstream model (knobs included); `sim/chat` is
 * a chat model, for the wrong-endpoint check.
 */
export function videoSimCatalog(simUrl: string, models: { id: string; upstream: string }[]): Catalog {
  const lines = [
    'providers:',
    `  - { id: openai-v, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 2000 }`,
    'models:',
    '  - id: sim/chat',
    '    endpoints: [{ provider: openai-v, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]',
  ];
  for (const m of models) {
    lines.push(`  - id: ${m.id}`, '    type: video', `    endpoints: [{ provider: openai-v, upstream_model: "${m.upstream}", pricing: { video_second: ${VIDEO_SECOND} } }]`);
  }
  const config = parseGatewayConfig(lines.join('\n'), 'video-test.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

import type { HttpTarget } from './load-types.js';

/** The two ways to the same upstream work: (a) straight to the simulator, (b) through the gateway. */
export interface Route {
  name: 'direct' | 'gateway' | 'bare proxy';
  origin: string;
  path: string;
  authorization: string;
  model: string;
  streamModel: string;
}

export const SIM_MODEL = 'sim-model';
/** 5 ms between upstream chunks, as the issue asks. */
export const SIM_STREAM_MODEL = 'sim-model@chunks=20,chunk_delay=5';
export const GATEWAY_MODEL = 'bench/sim';
export const GATEWAY_STREAM_MODEL = 'bench/sim-stream';
export const MANAGEMENT_KEY = 'sk-bench-management-key-0000000000000000';

export const directRoute = (simOrigin: string): Route => ({
  name: 'direct',
  origin: simOrigin,
  path: '/v1/chat/completions',
  authorization: 'Bearer bench',
  model: SIM_MODEL,
  streamModel: SIM_STREAM_MODEL,
});

/** The bare proxy forwards whatever it is sent to the simulator's chat path. */
export const bareProxyRoute = (proxyOrigin: string): Route => ({ ...directRoute(proxyOrigin), name: 'bare proxy' });

export const gatewayRoute = (gatewayOrigin: string): Route => ({
  name: 'gateway',
  origin: gatewayOrigin,
  path: '/api/v1/chat/completions',
  authorization: `Bearer ${MANAGEMENT_KEY}`,
  model: GATEWAY_MODEL,
  streamModel: GATEWAY_STREAM_MODEL,
});

const MESSAGES = [{ role: 'user', content: 'Hello from the benchmark' }];

export const chatTarget = (route: Route): HttpTarget => ({
  origin: route.origin,
  path: route.path,
  authorization: route.authorization,
  body: JSON.stringify({ model: route.model, messages: MESSAGES }),
});

/** Usage in the stream on both routes: the gateway asks its upstream for it anyway, so the simulator's work is the same. */
export const streamTarget = (route: Route): HttpTarget => ({
  origin: route.origin,
  path: route.path,
  authorization: route.authorization,
  body: JSON.stringify({ model: route.streamModel, messages: MESSAGES, stream: true, stream_options: { include_usage: true } }),
});

/**
 * The gateway's config file: one provider (the simulator), one model per simulator behaviour. `loopbackReceivers`
 * opens the loopback range to the destinations' fetcher, so that they reach the simulator's receivers (a build
 * from before destinations would refuse the setting: bench:compare leaves it out).
 */
export function gatewayYaml(simOrigin: string, { loopbackReceivers = false } = {}): string {
  const model = (id: string, upstream: string) => [
    `  - id: ${id}`,
    '    endpoints:',
    '      - provider: sim',
    `        upstream_model: "${upstream}"`,
    '        pricing: { prompt: 0.000001, completion: 0.000002 }',
  ];
  return [
    'providers:',
    '  - id: sim',
    '    kind: openai',
    `    base_url: ${simOrigin}/v1`,
    '    api_key: sim-key',
    'models:',
    ...model(GATEWAY_MODEL, SIM_MODEL),
    ...model(GATEWAY_STREAM_MODEL, SIM_STREAM_MODEL),
    ...(loopbackReceivers ? ['network:', '  allow_private_ranges: ["127.0.0.0/8"]'] : []),
    '',
  ].join('\n');
}

import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { SAMPLE_RATE, wav } from '../../src/sim/audio/sim-audio.js';

/** One model of each paid kind, on one simulator. */
export const catalogOn = (simUrl: string) =>
  buildCatalog({
    config: parseGatewayConfig(
      `
providers:
  - { id: openai-a, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 5000 }
  - { id: cohere-a, kind: cohere, base_url: "${simUrl}/v2", api_key: sim-key, timeout_ms: 5000 }
models:
  - id: sim/chat
    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - { id: sim/embed, type: embeddings, endpoints: [{ provider: openai-a, upstream_model: sim-embed, pricing: { prompt: 0.0000001 } }] }
  - { id: sim/image, type: image, endpoints: [{ provider: openai-a, upstream_model: gpt-image-1, pricing: { image: 0.04 } }] }
  - { id: sim/tts, type: speech, endpoints: [{ provider: openai-a, upstream_model: tts-1, pricing: { character: 0.000015 } }] }
  - { id: sim/stt, type: transcription, endpoints: [{ provider: openai-a, upstream_model: whisper-1, pricing: { audio_second: 0.0001 } }] }
  - { id: sim/rerank, type: rerank, endpoints: [{ provider: cohere-a, upstream_model: sim-rerank, pricing: { request: 0.002 } }] }
  - { id: sim/video, type: video, endpoints: [{ provider: openai-a, upstream_model: "sora-2@render_ms=20", pricing: { video_second: 0.1 } }] }
`,
      'paid-routes.yaml',
      { knownKinds: PROVIDER_KINDS },
      {},
    ),
    env: {},
    knownKinds: PROVIDER_KINDS,
  });

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const audio = () => {
  const form = new FormData();
  form.append('model', 'sim/stt');
  form.append('file', new Blob([wav(Buffer.alloc(SAMPLE_RATE * 2))], { type: 'audio/wav' }), 'silence.wav');
  return { body: form };
};
const messages = [{ role: 'user', content: 'hello there' }];

/** Every paid route, with a request it serves and the status it answers when served. */
export const PAID_ROUTES: {
  route: string;
  path: string;
  status: number;
  request: () => { headers?: Record<string, string>; body: string | FormData };
}[] = [
  { route: 'chat', path: '/chat/completions', status: 200, request: () => json({ model: 'sim/chat', messages, max_tokens: 20 }) },
  {
    route: 'responses',
    path: '/responses',
    status: 200,
    request: () => json({ model: 'sim/chat', input: 'hello there', max_output_tokens: 20 }),
  },
  { route: 'messages', path: '/messages', status: 200, request: () => json({ model: 'sim/chat', messages, max_tokens: 20 }) },
  { route: 'embeddings', path: '/embeddings', status: 200, request: () => json({ model: 'sim/embed', input: 'hello there' }) },
  { route: 'images', path: '/images', status: 200, request: () => json({ model: 'sim/image', prompt: 'a lighthouse' }) },
  {
    route: 'speech',
    path: '/audio/speech',
    status: 200,
    request: () => json({ model: 'sim/tts', input: 'Hello there.', voice: 'alloy' }),
  },
  { route: 'transcription', path: '/audio/transcriptions', status: 200, request: audio },
  {
    route: 'rerank',
    path: '/rerank',
    status: 200,
    request: () => json({ model: 'sim/rerank', query: 'capital', documents: ['Paris', 'Bananas'] }),
  },
  { route: 'videos', path: '/videos', status: 202, request: () => json({ model: 'sim/video', prompt: 'a cat', duration: 4 }) },
];

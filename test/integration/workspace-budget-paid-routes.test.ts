import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGeneration } from '../../src/accounting/record-generation.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { SAMPLE_RATE, wav } from '../../src/sim/audio/sim-audio.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { budgetWorkspace } from '../support/budget-workspace.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';

/** One model of each paid kind, on one simulator. */
const catalogOn = (simUrl: string) =>
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
const PAID_ROUTES: {
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

describe.each(testEngines)('a spent workspace budget on every paid route on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let spent: { id: string; key: string };
  let open: string;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: catalogOn(sim.url) });
    const ws = await budgetWorkspace(gw, 'spent');
    spent = { id: ws.id, key: await ws.newKey('spent key') };
    await recordGeneration(
      gw.store.db,
      {
        id: 'gen-before',
        organization_id: gw.organizationId,
        workspace_id: ws.id,
        api_key_hash: 'a deleted key',
        model: 'sim/chat',
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        cancelled: 0,
        total_cost: 1,
        created_at: new Date().toISOString(),
      },
      new Date(),
    );
    expect((await ws.setBudget('monthly', { limit_usd: 1 })).status).toBe(200);
    // The same spend in a workspace whose budget it does not reach: every route serves it.
    const other = await budgetWorkspace(gw, 'open');
    open = await other.newKey('open key');
    expect((await other.setBudget('lifetime', { limit_usd: 100 })).status).toBe(200);
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const post = (path: string, key: string, request: { headers?: Record<string, string>; body: string | FormData }) =>
    fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...request.headers }, body: request.body });

  it.each(PAID_ROUTES)('$route: served within a budget, refused with 402 once the budget is spent', async ({ path, status, request }) => {
    expect((await post(path, open, request())).status).toBe(status);
    const refused = await post(path, spent.key, request());
    expect(refused.status).toBe(402);
    const { error } = (await refused.json()) as { error: { metadata: Record<string, unknown> } };
    expect(refused.headers.get('x-error-code')).toBe('GW_ERR_WORKSPACE_BUDGET_SPENT');
    expect(error.metadata).toMatchObject({
      limit: 'workspace_budget',
      workspace_id: spent.id,
      interval: 'monthly',
      limit_usd: 1,
      usage: 1,
    });
  });
});

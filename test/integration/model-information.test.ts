import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';

/** Two providers on one simulator: alpha retains no data and says where it runs; beta says nothing and serves a model that fails. */
function catalogOn(simUrl: string) {
  const yaml = `
providers:
  - id: alpha
    kind: openai
    base_url: "${simUrl}/v1"
    api_key: sim-key
    zdr: true
    privacy_policy_url: https://alpha.example/privacy
    datacenters: [DE, IE]
  - { id: beta, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key }
models:
  - id: sim/chat
    endpoints:
      - { provider: alpha, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }
      - { provider: beta, upstream_model: sim-model, pricing: { prompt: 0.000003, completion: 0.000004 } }
  - id: sim/down
    endpoints: [{ provider: beta, upstream_model: "sim-model@status=500", pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/embed
    type: embeddings
    endpoints: [{ provider: beta, upstream_model: sim-embed, pricing: { prompt: 0.0000001 } }]
`;
  const config = parseGatewayConfig(yaml, 'model-information.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

const ROUTERS = ['service/auto', 'service/pareto', 'service/switchyard', 'service/fusion'];
const ids = (body: { data: { id: string }[] }) => body.data.map((m) => m.id);

describe.each(testEngines)('model, endpoint and provider information on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let userKey: { key: string; hash: string };
  const time = testClock();
  /** With the management key unless one is given; null for none. */
  const get = (path: string, key: string | null = gw.managementKey) => call(gw, 'GET', path, key ? { key } : {});
  const chat = (model: string) =>
    call(gw, 'POST', '/chat/completions', { key: gw.managementKey, body: { model, messages: [{ role: 'user', content: 'hi' }] } });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      catalog: catalogOn(sim.url),
      clock: time.clock,
      chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } },
    });
    const made = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'user' } });
    userKey = { key: made.body.key, hash: made.body.data.hash };
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('lists the providers with their policies and datacenters, and no health before any attempt', async () => {
    const { status, body } = await get('/providers');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        name: 'alpha',
        slug: 'alpha',
        privacy_policy_url: 'https://alpha.example/privacy',
        terms_of_service_url: null,
        status_page_url: null,
        headquarters: null,
        datacenters: ['DE', 'IE'],
        health: expect.objectContaining({ status: 'unknown', endpoints: 1, failing_endpoints: 0, uptime_last_30m: null }),
      },
      expect.objectContaining({ slug: 'beta', privacy_policy_url: null, health: expect.objectContaining({ endpoints: 3 }) }),
    ]);
    expect((await get('/providers', null)).status).toBe(401);
  });

  it('reports the uptime, latency and health this gateway measured, per endpoint and per provider', async () => {
    expect((await chat('sim/chat')).status).toBe(200);
    expect((await chat('sim/down')).status).toBeGreaterThanOrEqual(500);
    const endpoints = (await get('/models/sim/chat/endpoints')).body.data.endpoints;
    expect(endpoints[0]).toMatchObject({ tag: 'alpha', uptime_last_5m: 100, uptime_last_30m: 100, uptime_last_1d: 100, status: 0 });
    expect(endpoints[0].latency_last_30m.p50).toBeGreaterThanOrEqual(0);
    // beta's sim/chat endpoint was never tried: nothing measured, nothing invented.
    expect(endpoints[1]).toMatchObject({ tag: 'beta', uptime_last_5m: null, latency_last_30m: null, throughput_last_30m: null });
    const down = (await get('/models/sim/down/endpoints')).body.data.endpoints[0];
    expect(down).toMatchObject({ uptime_last_5m: 0, status: -1 });

    const providers = (await get('/providers')).body.data;
    expect(providers.map((p: { slug: string; health: unknown }) => [p.slug, p.health])).toEqual([
      ['alpha', { status: 'ok', endpoints: 1, failing_endpoints: 0, uptime_last_5m: 100, uptime_last_30m: 100, uptime_last_1d: 100 }],
      ['beta', { status: 'degraded', endpoints: 3, failing_endpoints: 1, uptime_last_5m: 0, uptime_last_30m: 0, uptime_last_1d: 0 }],
    ]);
  });

  it('lists the endpoints of zero-data-retention providers', async () => {
    const { status, body } = await get('/endpoints/zdr');
    expect(status).toBe(200);
    expect(body.data.map((e: { model_id: string; tag: string }) => [e.model_id, e.tag])).toEqual([['sim/chat', 'alpha']]);
    expect(body.data[0]).toMatchObject({ uptime_last_5m: 100, pricing: { prompt: '0.000001' } });
  });

  it('counts the models by output modality, text by default, and names the field of a bad one', async () => {
    const count = async (query: string) => (await get(`/models/count${query}`)).body;
    expect(await count('')).toEqual({ data: { count: 2 + ROUTERS.length } });
    expect(await count('?output_modalities=embeddings')).toEqual({ data: { count: 1 } });
    expect(await count('?output_modalities=text,embeddings')).toEqual({ data: { count: 3 + ROUTERS.length } });
    expect(await count('?output_modalities=all')).toEqual({ data: { count: 3 + ROUTERS.length } });
    expect(await count('?output_modalities=image')).toEqual({ data: { count: 0 } });
    const refused = await get('/models/count?output_modalities=text,smell');
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(400);
    expect(refused.body.error.message).toContain('output_modalities');
    expect(refused.body.error.message).toContain('"smell"');
    expect((await get('/models/count?output_modalities=,')).status).toBe(400);
  });

  it('answers one model, or 404 in the envelope', async () => {
    const one = await get('/model/sim/chat');
    expect(one.status).toBe(200);
    const listed = (await get('/models')).body.data.find((m: { id: string }) => m.id === 'sim/chat');
    expect(one.body).toEqual({ data: listed });
    expect((await get('/model/service/auto')).body.data.id).toBe('service/auto');
    const missing = await get('/model/nobody/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'Model not found' } });
  });

  it("lists the models a key may use after its organization's provider preferences and its guardrails", async () => {
    const mine = async () => (await get('/models/user', userKey.key)).body;
    expect(ids(await mine())).toEqual(['sim/chat', 'sim/down', 'sim/embed', ...ROUTERS]);

    const settings = await call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { provider: { ignore: ['beta'] } } });
    expect(settings.status).toBe(200);
    expect(ids(await mine())).toEqual(['sim/chat', ...ROUTERS]);
    await call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { provider: null } });

    // A guardrail on the key that allows beta only: sim/chat stays, priced as beta serves it.
    const rail = await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'beta only', allowed_providers: ['beta'] } });
    await call(gw, 'POST', `/guardrails/${rail.body.data.id}/assignments/keys`, {
      key: gw.managementKey,
      body: { key_hashes: [userKey.hash] },
    });
    const body = await mine();
    expect(ids(body)).toEqual(['sim/chat', 'sim/down', 'sim/embed', ...ROUTERS]);
    expect(body.data[0].pricing).toEqual({ prompt: '0.000003', completion: '0.000004' });
    // The management key has no such guardrail: it still sees alpha's prices.
    expect((await get('/models/user')).body.data[0].pricing).toEqual({ prompt: '0.000001', completion: '0.000002' });

    const paged = (await get('/models/user?offset=1&limit=2', userKey.key)).body;
    expect(paged).toMatchObject({
      total_count: 3 + ROUTERS.length,
      links: { next: expect.stringMatching(/\/models\/user\?offset=3&limit=2$/) },
    });
    expect(ids(paged)).toEqual(['sim/down', 'sim/embed']);
    expect((await get('/models/user?limit=0', userKey.key)).status).toBe(400);
    expect((await get('/models/user', null)).status).toBe(401);
  });

  it('forgets what it measured once it is older than each window', async () => {
    const alpha = async () => (await get('/models/sim/chat/endpoints')).body.data.endpoints[0];
    time.advance(31 * 60_000);
    expect(await alpha()).toMatchObject({ uptime_last_5m: null, uptime_last_30m: null, uptime_last_1d: 100, latency_last_30m: null });
    time.advance(24 * 60 * 60_000);
    expect(await alpha()).toMatchObject({ uptime_last_1d: null });
    expect((await get('/providers')).body.data[0].health).toMatchObject({ status: 'unknown', uptime_last_1d: null });
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetricsServer, startMetricsServer } from '../../src/observability/metrics/metrics-server.js';
import { Observability } from '../../src/observability/observability.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { parseExposition, sampleValue } from '../support/prometheus-text.js';
import { readSse } from '../support/read-sse.js';
import { simCatalog } from '../support/sim-gateway.js';

const TOKEN = 'metrics-test-token-0123456789';
const CHAT = '/api/v1/chat/completions';
const messages = [{ role: 'user', content: 'hello there' }];

describe.each(testEngines)('GET /metrics on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let root: string;
  const scrape = async (token = TOKEN) => {
    const res = await fetch(`${root}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return parseExposition(await res.text());
  };
  const chat = (body: Record<string, unknown>, key = gw.managementKey) =>
    call(gw, 'POST', '/chat/completions', { key, body: { messages, ...body } });

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
      ],
    );
    gw = await startGateway(engine, { catalog, observability: new Observability({ metricsToken: TOKEN }) });
    root = gw.baseUrl.replace(/\/api\/v1$/, '');
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('refuses a scrape without the metrics token, or with another, in the envelope', async () => {
    const missing = await fetch(`${root}/metrics`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: { code: 401, message: 'Missing Authentication header' } });
    const wrong = await fetch(`${root}/metrics`, { headers: { authorization: `Bearer ${gw.managementKey}` } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid metrics token/);
  });

  it('is valid exposition whose counters move with traffic: requests, attempts by outcome, tokens, cost, time to first token, ledger writes', async () => {
    const before = await scrape();
    const ok = { method: 'POST', route: CHAT, status: '200' };
    expect((await chat({ model: 'sim/fast' })).status).toBe(200);
    expect((await chat({ model: 'sim/flaky' })).status).toBe(200);
    const stream = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/fast', stream: true, messages }),
    });
    expect((await readSse(stream)).done).toBe(true);
    expect((await call(gw, 'GET', '/no/such/route')).status).toBe(404);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(moved('gateway_http_requests_total', ok)).toBe(3);
    expect(moved('gateway_http_request_duration_seconds_count', { method: 'POST', route: CHAT })).toBe(3);
    expect(moved('gateway_http_request_overhead_seconds_count', { route: CHAT })).toBe(3);
    expect(moved('gateway_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(moved('gateway_upstream_attempts_total', { model: 'sim/fast', provider: 'alpha', outcome: 'success' })).toBe(2);
    expect(moved('gateway_upstream_attempts_total', { model: 'sim/flaky', provider: 'alpha', outcome: 'http_5xx' })).toBe(1);
    expect(moved('gateway_upstream_attempts_total', { model: 'sim/flaky', provider: 'beta', outcome: 'success' })).toBe(1);
    expect(moved('gateway_tokens_total', { model: 'sim/fast', provider: 'alpha', type: 'input' })).toBeGreaterThan(0);
    expect(moved('gateway_tokens_total', { model: 'sim/fast', provider: 'alpha', type: 'output' })).toBeGreaterThan(0);
    expect(moved('gateway_cost_usd_total', { model: 'sim/flaky', provider: 'beta' })).toBeGreaterThan(0);
    expect(moved('gateway_time_to_first_token_seconds_count', { model: 'sim/fast', provider: 'alpha' })).toBe(1);
    expect(moved('gateway_ledger_write_seconds_count')).toBe(3);
    expect(moved('gateway_spend_reservations_total', { outcome: 'unlimited' })).toBe(3);
    // The scrape itself is the one request in flight; the stream has ended.
    expect(sampleValue(after, 'gateway_http_requests_in_flight')).toBe(1);
    expect(sampleValue(after, 'gateway_streams_in_flight')).toBe(0);
    expect(sampleValue(after, 'gateway_endpoint_healthy', { model: 'sim/flaky', provider: 'alpha' })).toBe(0);
    expect(sampleValue(after, 'gateway_endpoint_healthy', { model: 'sim/fast', provider: 'alpha' })).toBe(1);
    // The process's own metrics, event-loop delay included.
    expect(after.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(after.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('gauge');
  });

  it('counts spend refusals, and no label carries a key, its hash or a request id', async () => {
    const limited = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.000001 } })).body as {
      key: string;
      data: { hash: string };
    };
    const before = await scrape();
    const refused = await chat({ model: 'sim/fast', max_tokens: 1000 }, limited.key);
    expect(refused.status).toBe(402);
    const after = await scrape();
    expect(
      sampleValue(after, 'gateway_spend_refusals_total', { code: '402' }) -
        sampleValue(before, 'gateway_spend_refusals_total', { code: '402' }),
    ).toBe(1);
    expect(sampleValue(after, 'gateway_http_requests_total', { method: 'POST', route: CHAT, status: '402' })).toBeGreaterThanOrEqual(1);

    const secrets = [
      gw.managementKey,
      createHash('sha256').update(gw.managementKey).digest('hex'),
      limited.key,
      limited.data.hash,
      refused.headers.get('x-request-id')!,
    ];
    for (const family of after.values()) {
      for (const { labels } of family.samples) {
        for (const value of Object.values(labels)) for (const secret of secrets) expect(value).not.toContain(secret.slice(0, 12));
      }
    }
  });

  it('serves the same metrics on an address of its own (METRICS_LISTEN)', async () => {
    const observability = new Observability({ metricsElsewhere: true });
    const own = await startGateway(engine, { observability });
    let server: MetricsServer | undefined;
    try {
      expect((await fetch(`${own.baseUrl.replace(/\/api\/v1$/, '')}/metrics`)).status).toBe(404);
      server = await startMetricsServer(observability.metrics, { host: '127.0.0.1', port: 0 }, TOKEN);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(
        sampleValue(parseExposition(await res.text()), 'gateway_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
      ).toBe(1);
      expect((await fetch(`${server.url}/other`)).status).toBe(404);
    } finally {
      await server?.close();
      await own.close();
    }
  });
});

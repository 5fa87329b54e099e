import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Observability } from '../../src/observability/observability.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { parseExposition, sampleValue } from '../support/prometheus-text.js';
import { simCatalog } from '../support/sim-gateway.js';
import { until } from '../support/until.js';

const messages = [{ role: 'user', content: 'hello there' }];

/** A pino logger at info level whose lines the test reads. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines, requests: () => lines.filter((l) => l.msg === 'request') };
}

describe.each(testEngines)('the access log on $name', (engine) => {
  let sim: Simulator;
  const catalog = () =>
    simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        { id: 'sim/down', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500' }] },
      ],
    );
  const gateways: RunningGateway[] = [];
  const start = async (accessLog: { enabled: boolean; sample: number }) => {
    const captured = capturedLogger();
    const gw = await startGateway(engine, { catalog: catalog(), logger: captured.logger, observability: new Observability({ accessLog }) });
    gateways.push(gw);
    return { gw, ...captured };
  };

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
    await sim.close();
  });

  it('writes one JSON line per request at info level: method, route, status, duration, request id, key hash prefix, model, provider, tokens and cost', async () => {
    const { gw, requests } = await start({ enabled: true, sample: 1 });
    const res = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'sim/fast', messages },
      headers: { 'x-request-id': 'access-log-1' },
    });
    expect(res.status).toBe(200);
    await call(gw, 'GET', '/models', { key: gw.managementKey });
    await until(
      () => requests().length,
      (n) => n === 2,
    );
    const [line, other] = requests();
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      msg: 'request',
      method: 'POST',
      route: '/api/v1/chat/completions',
      status: 200,
      duration_ms: expect.any(Number),
      request_id: 'access-log-1',
      key_hash: createHash('sha256').update(gw.managementKey).digest('hex').slice(0, 12),
      model: 'sim/fast',
      provider: 'alpha',
      tokens_in: res.body.usage.prompt_tokens,
      tokens_out: res.body.usage.completion_tokens,
      cost_usd: res.body.usage.cost,
      upstream_ms: expect.any(Number),
    });
    expect(line!.duration_ms as number).toBeGreaterThanOrEqual(line!.upstream_ms as number);
    expect(other).toMatchObject({ method: 'GET', route: '/api/v1/models', status: 200 });
    expect(other).not.toHaveProperty('model');
    // The key itself never appears.
    expect(JSON.stringify(requests())).not.toContain(gw.managementKey);
  });

  it("samples: at 0 only the gateway's own failures (5xx) are written; turned off, nothing", async () => {
    const sampled = await start({ enabled: true, sample: 0 });
    expect(
      (await call(sampled.gw, 'POST', '/chat/completions', { key: sampled.gw.managementKey, body: { model: 'sim/fast', messages } }))
        .status,
    ).toBe(200);
    expect(
      (await call(sampled.gw, 'POST', '/chat/completions', { key: sampled.gw.managementKey, body: { model: 'sim/down', messages } }))
        .status,
    ).toBe(502);
    await until(
      () => sampled.requests().length,
      (n) => n === 1,
    );
    expect(sampled.requests()[0]).toMatchObject({ status: 502, model: 'sim/down', provider: 'alpha' });

    const off = await start({ enabled: false, sample: 1 });
    expect(
      (await call(off.gw, 'POST', '/chat/completions', { key: off.gw.managementKey, body: { model: 'sim/down', messages } })).status,
    ).toBe(502);
    expect((await call(off.gw, 'GET', '/models')).status).toBe(401);
    // Both requests were finished (counted, then logged or not, in one step) before the log is read.
    const counted = async () => {
      const text = await (await fetch(`${off.gw.baseUrl.replace(/\/api\/v1$/, '')}/metrics`)).text();
      return sampleValue(parseExposition(text), 'gateway_http_requests_total', { route: '/api/v1/models', status: '401' });
    };
    expect(await until(counted, (n) => n === 1)).toBe(1);
    expect(off.requests()).toEqual([]);
    expect(sampled.requests()).toHaveLength(1);
  });
});

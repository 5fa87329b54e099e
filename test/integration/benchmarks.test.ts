import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { type SimModel, simCatalog } from '../support/sim-gateway.js';

const MODELS: SimModel[] = [
  {
    id: 'sim/a',
    scores: { general: 0.6, coding: 0.5 },
    endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=4,latency=20,ttft=30,chunk_delay=10' }],
  },
  { id: 'sim/down', scores: { general: 0.3 }, endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500' }] },
  { id: 'sim/unscored', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
];

/** GET /benchmarks from real traffic: the catalog's scores, and figures measured of what the simulator served. */
describe.each(testEngines)('benchmarks on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let costs: number[];
  // Real time (the figures are measured durations), shifted when the test moves on.
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const get = (query = '') => call(gw, 'GET', `/benchmarks${query}`, { key: gw.managementKey });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { clock, catalog: simCatalog(sim.url, ['alpha'], MODELS) });
    const chat = (model: string, stream = false) =>
      call(gw, 'POST', '/chat/completions', {
        key: gw.managementKey,
        body: { model, stream, max_tokens: 20, messages: [{ role: 'user', content: 'tell me something' }] },
      });
    for (const stream of [false, true, true]) expect((await chat('sim/a', stream)).status).toBe(200);
    expect((await chat('sim/down')).status).toBe(502);
    costs = (await gw.store.db.selectFrom('generations').select('total_cost').where('model', '=', 'sim/a').execute()).map(
      (r) => r.total_cost,
    );
    shift = 10 * 60_000;
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('gives each scored model its catalog scores and each endpoint what the gateway measured', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.data.map((item: { model_permaslug: string }) => item.model_permaslug)).toEqual(['sim/a', 'sim/down']);
    const [a, down] = res.body.data;
    expect(a).toMatchObject({
      source: 'openrouter',
      benchmark_type: 'gpqa_diamond',
      accuracy: 0.6,
      accuracy_stddev: null,
      total_tasks: 198,
      scores: { general: 0.6, coding: 0.5 },
    });
    expect(a.avg_cost_per_task).toBeCloseTo(costs.reduce((s, c) => s + c, 0) / 3, 12);
    const [endpoint] = a.endpoints;
    expect(endpoint).toMatchObject({
      provider: 'alpha',
      samples: 3,
      // Ten minutes on: nothing in the last 5 minutes, all in the last 30 and the day.
      uptime_last_5m: null,
      error_rate_last_5m: null,
      uptime_last_30m: 100,
      error_rate_last_30m: 0,
      uptime_last_1d: 100,
      error_rate_last_1d: 0,
      requests_last_1d: 3,
    });
    for (const figure of [endpoint.latency_ms, endpoint.first_token_ms, endpoint.tokens_per_second]) {
      expect(figure.p50).toBeGreaterThan(0);
      expect(figure.p90).toBeGreaterThanOrEqual(figure.p50);
    }
    // The simulator's delays: 20 ms to its headers, 30 more to the first token, 10 between chunks.
    expect(endpoint.first_token_ms.p50).toBeGreaterThanOrEqual(50);
    expect(endpoint.latency_ms.p50).toBeGreaterThan(endpoint.first_token_ms.p50);
    // The failing endpoint: measured down, nothing served to time.
    expect(down.avg_cost_per_task).toBeNull();
    expect(down.endpoints[0]).toMatchObject({
      samples: 0,
      latency_ms: null,
      uptime_last_30m: 0,
      error_rate_last_30m: 1,
      uptime_last_1d: 0,
    });
    expect(res.body.meta).toEqual({
      as_of: expect.any(String),
      version: 'v1',
      source: null,
      source_url: null,
      citation: null,
      model_count: 2,
      task_type: null,
    });
  });

  it('filters by task type, source, benchmark type and count as the reference', async () => {
    const coding = await get('?task_type=coding');
    expect(coding.body.data.map((item: { model_permaslug: string }) => item.model_permaslug)).toEqual(['sim/a']);
    expect(coding.body.meta.task_type).toBe('coding');
    expect((await get('?task_type=agentic')).body.data).toEqual([]);
    const arena = await get('?source=design-arena');
    expect(arena.body.data).toEqual([]);
    expect(arena.body.meta).toMatchObject({ source: 'design-arena', model_count: 0 });
    expect((await get('?benchmark_type=search_hle')).body.data).toEqual([]);
    expect((await get('?source=openrouter&benchmark_type=gpqa_diamond&max_results=1')).body.data).toHaveLength(1);
  });

  it.each([
    ['?source=lmarena', 'source'],
    ['?task_type=math', 'task_type'],
    ['?benchmark_type=mmlu', 'benchmark_type'],
    ['?max_results=0', 'max_results'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });
});

import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGenerations } from '../../src/accounting/record-generation.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [
  { id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
  { id: 'sim/down', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500' }] },
];

describe.each(testEngines)('GET /generations and endpoint health on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const clock = testClock('2026-11-20T10:00:00.000Z');
  const keys: Record<'a' | 'b', { key: string; hash: string }> = {} as never;
  const chat = (key: string, model: string) =>
    call(gw, 'POST', '/chat/completions', { key, body: { model, max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] } });
  const list = (query = '', key = gw.managementKey) => call(gw, 'GET', `/generations${query}`, { key });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { clock: clock.clock, catalog: simCatalog(sim.url, ['alpha'], MODELS) });
    for (const name of ['a', 'b'] as const) {
      const made = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name } });
      keys[name] = { key: made.body.key, hash: made.body.data.hash };
    }
    expect((await chat(keys.a.key, 'sim/a')).status).toBe(200);
    clock.set('2026-11-20T11:00:00.000Z');
    expect((await chat(keys.b.key, 'sim/a')).status).toBe(200);
    clock.set('2026-11-20T12:00:00.000Z');
    expect((await chat(keys.a.key, 'sim/down')).status).toBe(502);
    clock.set('2026-11-20T13:00:00.000Z');
    expect((await chat(keys.a.key, 'sim/a')).status).toBe(200);
    // Another organization's row in the same hours: never listed here.
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: '2026-11-20T10:00:00.000Z' })
      .execute();
    await recordGenerations(
      gw.store.db,
      [
        {
          id: 'gen-other',
          organization_id: 'org_other',
          workspace_id: 'w',
          api_key_hash: keys.a.hash,
          model: 'sim/a',
          provider_name: 'alpha',
          api_type: 'completions',
          status: 'success',
          streamed: 0,
          cancelled: 0,
          total_cost: 5,
          created_at: '2026-11-20T12:30:00.000Z',
        },
      ],
      new Date('2026-11-20T12:30:00.000Z'),
    );
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('lists the organization’s generations newest first, with the key of each and what GET /generation says of it', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.has_more).toBe(false);
    const rows = res.body.data as { id: string; created_at: string; api_key_hash: string; model: string; status: string }[];
    expect(rows.map((r) => [r.created_at, r.model, r.status, r.api_key_hash])).toEqual([
      ['2026-11-20T13:00:00.000Z', 'sim/a', 'success', keys.a.hash],
      ['2026-11-20T12:00:00.000Z', 'sim/down', 'error', keys.a.hash],
      ['2026-11-20T11:00:00.000Z', 'sim/a', 'success', keys.b.hash],
      ['2026-11-20T10:00:00.000Z', 'sim/a', 'success', keys.a.hash],
    ]);
    const one = await call(gw, 'GET', `/generation?id=${rows[0]!.id}`, { key: gw.managementKey });
    expect(rows[0]).toEqual({ ...one.body.data, api_key_hash: keys.a.hash });
  });

  it('filters by key, model, status and time, and pages', async () => {
    const times = async (query: string) =>
      ((await list(query)).body.data as { created_at: string }[]).map((r) => r.created_at.slice(11, 13));
    expect(await times(`?api_key_hash=${keys.b.hash}`)).toEqual(['11']);
    expect(await times('?model=sim/down')).toEqual(['12']);
    expect(await times(`?status=success&api_key_hash=${keys.a.hash}`)).toEqual(['13', '10']);
    expect(await times('?from=2026-11-20T11:00:00Z&to=2026-11-20T13:00:00Z')).toEqual(['12', '11']);
    expect(await times('?from=2026-11-20T12:00:00%2B01:00')).toEqual(['13', '12', '11']);
    const first = await list('?limit=3');
    expect(first.body.has_more).toBe(true);
    const second = await list('?limit=3&offset=3');
    expect(second.body.has_more).toBe(false);
    expect([...first.body.data, ...second.body.data].map((r: { id: string }) => r.id)).toEqual(
      (await list()).body.data.map((r: { id: string }) => r.id),
    );
  });

  it('refuses bad filters naming the field, and keys that are not management keys', async () => {
    const refusals: [string, string][] = [
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?offset=10001', 'offset'],
      ['?status=done', 'status'],
      ['?api_key_hash=abc', 'api_key_hash'],
      ['?from=yesterday', 'from'],
      ['?colour=red', 'colour'],
    ];
    for (const [query, field] of refusals) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toContain(field);
    }
    const backwards = await list('?from=2026-11-20T13:00:00Z&to=2026-11-20T11:00:00Z');
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.message).toBe('from must be earlier than to');
    expect((await list('', keys.a.key)).status).toBe(403);
  });

  it('reports each endpoint’s health: latency it served, and one that failed lately as such', async () => {
    const served = await call(gw, 'GET', '/models/sim/a/endpoints', { key: gw.managementKey });
    const [ok] = served.body.data.endpoints;
    expect(ok.status).toBe(0);
    expect(ok.latency_last_30m).toEqual({
      p50: expect.any(Number),
      p75: expect.any(Number),
      p90: expect.any(Number),
      p99: expect.any(Number),
    });
    // The reference's own client parses them with its schemas.
    const sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
    const parsed = (await sdk.endpoints.list({ author: 'sim', slug: 'a' })).data.endpoints[0]!;
    expect(parsed.status).toBe(0);
    expect(parsed.latencyLast30m?.p50).toBe(ok.latency_last_30m.p50);
    const down = async () => (await call(gw, 'GET', '/models/sim/down/endpoints', { key: gw.managementKey })).body.data.endpoints[0];
    // Its failure at 12:00 has rested by now; a new one makes routing try it last for 30 seconds.
    expect(await down()).toMatchObject({ status: 0, latency_last_30m: null, throughput_last_30m: null });
    clock.set('2026-11-20T14:00:00.000Z');
    expect((await chat(keys.a.key, 'sim/down')).status).toBe(502);
    expect((await down()).status).toBe(-1);
    clock.set('2026-11-20T14:00:31.000Z');
    expect((await down()).status).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const PRICES = { prompt: 0.00004, completion: 0.00004 };
const MODELS = [
  { id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] },
  { id: 'sim/down', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500', ...PRICES }] },
];
const BODY_LIMIT = 64 * 1024;
const RATE = { requests_per_key: 40, window_seconds: 600 };

interface Listed {
  request_id: string;
  model: string;
  status: string;
  total_cost: number;
  api_key_hash: string;
  workspace_id: string;
  api_type: string;
  provider_name: string | null;
  error: { code: number; name: string; message: string } | null;
}

describe.each(testEngines)('refusals in the request log on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const clock = testClock('2026-11-20T10:00:00.000Z');
  type Key = { key: string; hash: string; workspace: string };
  let key: Key;
  let poor: Key;
  const newKey = async (body: Record<string, unknown>): Promise<Key> => {
    const made = await call(gw, 'POST', '/keys', { key: gw.managementKey, body });
    return { key: made.body.key, hash: made.body.data.hash, workspace: made.body.data.workspace_id };
  };
  const chat = (body: unknown, as = key.key) => call(gw, 'POST', '/chat/completions', { key: as, body });
  const say = [{ role: 'user', content: 'hello' }];
  const errors = async (of = key) =>
    (await call(gw, 'GET', `/generations?status=error&api_key_hash=${of.hash}&limit=100`, { key: gw.managementKey })).body.data as Listed[];

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      clock: clock.clock,
      catalog: simCatalog(sim.url, ['alpha'], MODELS),
      clientLimits: { bodyLimit: BODY_LIMIT },
      rateLimits: RATE,
    });
    key = await newKey({ name: 'newcomer' });
    // Its limit covers no chat: every one is a 402.
    poor = await newKey({ name: 'poor', limit: 0.00001 });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('records each refusal before an upstream call with its status, error name, model as asked, key, workspace and request id, at no cost', async () => {
    const refused = [
      await chat({ model: 'sim/chat', messages: say, temperature: 'hot' }),
      await chat({ model: 'sim/chta', messages: say }),
      await chat({ model: 'sim/chat', messages: say }, poor.key),
      await call(gw, 'POST', '/embeddings', { key: key.key, body: { model: 'sim/nothing', input: 'x' } }),
      await chat({ model: 'sim/chat', messages: [{ role: 'user', content: 'x'.repeat(BODY_LIMIT) }] }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 404, 402, 404, 413]);
    // A slip of the keyboard is answered with the id it is closest to; a name far from every id with none.
    expect(refused[1]!.body.error.message).toBe('Model sim/chta does not exist or is not enabled on this gateway: did you mean sim/chat?');
    expect(refused[3]!.body.error.message).toBe('Model sim/nothing does not exist or is not enabled on this gateway');
    const rows = [...(await errors()), ...(await errors(poor))];
    const byRequest = new Map(rows.map((row) => [row.request_id, row]));
    for (const [i, answer] of refused.entries()) {
      const row = byRequest.get(answer.headers.get('x-request-id')!);
      const by = i === 2 ? poor : key;
      expect(row, `refusal ${i}`).toMatchObject({
        status: 'error',
        total_cost: 0,
        api_key_hash: by.hash,
        workspace_id: by.workspace,
        provider_name: null,
        error: { code: answer.status, name: answer.headers.get('x-error-code'), message: answer.body.error.message },
      });
    }
    const models = refused.map((r) => byRequest.get(r.headers.get('x-request-id')!)!);
    // The model as the client asked for it; a body refused before it was read names none.
    expect(models.map((r) => [r.model, r.api_type])).toEqual([
      ['sim/chat', 'completions'],
      ['sim/chta', 'completions'],
      ['sim/chat', 'completions'],
      ['sim/nothing', 'embeddings'],
      ['unknown', 'completions'],
    ]);
  });

  it('records a request that reached a provider once, and none for a request that is not a generation', async () => {
    const before = (await errors()).length;
    const down = await chat({ model: 'sim/down', messages: say });
    expect(down.status).toBe(502);
    expect((await call(gw, 'GET', '/generation?id=nothing', { key: key.key })).status).toBe(404);
    const rows = (await errors()).filter((row) => row.request_id === down.headers.get('x-request-id'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider_name: 'alpha', error: { code: 502 } });
    expect(await errors()).toHaveLength(before + 1);
  });

  it('records a guardrail refusal with its reason', async () => {
    const id = (
      await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'No falcons', blocked_keywords: ['falcon'] } })
    ).body.data.id as string;
    await call(gw, 'POST', `/guardrails/${id}/assignments/keys`, { key: gw.managementKey, body: { key_hashes: [key.hash] } });
    const blocked = await chat({ model: 'sim/chat', messages: [{ role: 'user', content: 'about Falcon' }] });
    expect(blocked.status).toBe(403);
    const row = (await errors()).find((r) => r.request_id === blocked.headers.get('x-request-id'));
    expect(row?.error).toEqual({ code: 403, name: 'GW_ERR_GUARDRAIL_BLOCKED', message: blocked.body.error.message });
    await call(gw, 'DELETE', `/guardrails/${id}`, { key: gw.managementKey });
  });

  it("bounds a flood of refusals by the key's rate limit: one 429 is recorded per window", async () => {
    const flooding = await newKey({ name: 'flood' });
    const flood = [];
    for (let i = 0; i < RATE.requests_per_key + 20; i++)
      flood.push(await chat({ model: 'sim/chat', messages: say, temperature: 'hot' }, flooding.key));
    expect(flood.filter((r) => r.status === 429)).toHaveLength(20);
    const rows = await errors(flooding);
    expect(rows.filter((r) => r.error?.name === 'GW_ERR_KEY_RATE_LIMITED')).toHaveLength(1);
    // Every request the limit let through is there; only the first 429 of the window is.
    expect(rows).toHaveLength(RATE.requests_per_key + 1);
  });
  it('counts the errors by status class in /activity and /analytics/query: a refusal is a 4xx, a failed provider a 5xx', async () => {
    const rows = await errors();
    const refusals = rows.filter((row) => row.error!.code < 500).length;
    expect(refusals).toBeGreaterThan(0);
    const query = await call(gw, 'POST', '/analytics/query', {
      key: gw.managementKey,
      body: {
        metrics: ['request_count', 'error_count', 'error_count_4xx', 'error_count_5xx'],
        filters: [{ field: 'api_key_id', operator: 'eq', value: key.hash }],
        time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' },
      },
    });
    expect(query.status).toBe(200);
    expect(query.body.data.data).toEqual([
      { request_count: rows.length, error_count: rows.length, error_count_4xx: refusals, error_count_5xx: rows.length - refusals },
    ]);
    // The day is over: /activity has it, a refusal under the model it asked for, with no provider.
    clock.set('2026-11-21T10:00:00.000Z');
    const activity = await call(gw, 'GET', `/activity?api_key_hash=${key.hash}`, { key: gw.managementKey });
    expect(activity.status).toBe(200);
    const items = activity.body.data as {
      model: string;
      provider_name: string;
      requests: number;
      errors_4xx: number;
      errors_5xx: number;
    }[];
    expect(items.reduce((n, i) => n + i.errors_4xx, 0)).toBe(refusals);
    expect(items.reduce((n, i) => n + i.errors_5xx, 0)).toBe(rows.length - refusals);
    expect(items).toContainEqual(
      expect.objectContaining({ model: 'sim/chta', provider_name: '', requests: 1, errors_4xx: 1, errors_5xx: 0 }),
    );
  });
});

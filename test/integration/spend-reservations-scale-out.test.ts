import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Catalog } from '../../src/catalog/types.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { startGatewayProcess } from '../support/gateway-process.js';
import { PROCESS_TESTS } from '../support/process-tests.js';
import { type SimModel, simCatalog } from '../support/sim-gateway.js';
import { until } from '../support/until.js';
import { jobEnded } from '../support/video-jobs.js';
import { videoSimCatalog } from '../support/video-sim-catalog.js';

const postgres = testEngines.find((e) => e.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;

// As in spend-reservations.test.ts: a chat can cost $0.00116 and costs less; a video job costs $1.60.
const PRICES = { prompt: 0.00004, completion: 0.00004 };
const CHAT_MODELS: SimModel[] = [
  { id: 'sim/metered', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] },
  { id: 'sim/hang', endpoints: [{ provider: 'alpha', upstream: 'sim-model@hang=1', ...PRICES }] },
];
const VIDEO_MODELS = [{ id: 'sim/video', endpoints: [{ provider: 'openai-v' as const, upstream: 'sora-2@render_ms=300', price: 0.2 }] }];
const AFFORD = /^This request requires more credits, or fewer max_tokens\. You requested up to 20 tokens, but can only afford \d+\.$/;

/** The chat models of one catalog and the video models of another, served together. */
function combined(chats: Catalog, videos: Catalog): Catalog {
  const owner = (id: string) => (videos.getModel(id) ? videos : chats);
  return {
    providers: new Map([...chats.providers, ...videos.providers]),
    getModel: (id) => owner(id).getModel(id),
    listModels: () => [...chats.listModels(), ...videos.listModels()],
    targetFor: (model, endpoint) => owner(model.id).targetFor(model, endpoint),
  };
}

const chat = (gw: Pick<RunningGateway, 'baseUrl'>, key: string, fields: Record<string, unknown> = {}) =>
  call(gw, 'POST', '/chat/completions', {
    key,
    body: { model: 'sim/metered', max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }], ...fields },
  });

describe.skipIf(!postgres || !redisUrl)('spend reservations across instances sharing PostgreSQL and Redis', PROCESS_TESTS, () => {
  let sim: Simulator;
  let a: RunningGateway;
  let b: RunningGateway;
  const newKey = async (limit: number) =>
    (await call(a, 'POST', '/keys', { key: a.managementKey, body: { name: `limited ${limit}`, limit } })).body as {
      key: string;
      data: { hash: string };
    };
  // Served requests' rows: each refusal has a row too, at no cost (api/refusals/record-refusals.ts).
  const rowsOf = (hash: string, status: 'success' | 'error' = 'success') =>
    a.store.db.selectFrom('generations').select(['total_cost']).where('api_key_hash', '=', hash).where('status', '=', status).execute();
  const usageOf = async (key: string) => (await call(a, 'GET', '/key', { key })).body.data.usage as number;

  beforeAll(async () => {
    sim = await startSimulator();
    const both = combined(simCatalog(sim.url, ['alpha'], CHAT_MODELS), videoSimCatalog(sim.url, VIDEO_MODELS));
    const videos = { tickMs: 20, intervalMs: 20, leaseMs: 2_000 };
    a = await startGateway(postgres!, { catalog: both, redisUrl, videos });
    b = await startGateway(postgres!, { catalog: both, redisUrl, videos, databaseUrl: a.store.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await sim.close();
  });

  it("holds 150 concurrent chats on a $0.01 key, spread over both instances, to its limit (plus one request's cost at most)", async () => {
    const limited = await newKey(0.01);
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => chat(i % 2 ? a : b, limited.key, { stream: i % 3 === 0 })));
    const answered = results.filter((r) => r.status === 200).length;
    expect(answered).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === 402 && AFFORD.test(r.body.error.message)).length).toBe(150 - answered);
    const rows = await rowsOf(limited.data.hash);
    expect(rows).toHaveLength(answered);
    expect((await rowsOf(limited.data.hash, 'error')).filter((row) => row.total_cost === 0)).toHaveLength(150 - answered);
    expect(await usageOf(limited.key)).toBeLessThanOrEqual(0.01 + Math.max(...rows.map((row) => row.total_cost)));
  });

  it('accepts of ten $1.60 jobs on a $2 key, submitted to either instance, only the one that fits; its end on either frees the hold for its cost', async () => {
    const limited = await newKey(2);
    const results = [];
    for (let i = 0; i < 10; i++)
      results.push(
        await call(i % 2 ? a : b, 'POST', '/videos', { key: limited.key, body: { model: 'sim/video', prompt: 'a cat', duration: 8 } }),
      );
    expect(results.map((r) => r.status)).toEqual([202, ...Array(9).fill(402)]);
    expect((await jobEnded(a, results[0]!.body.id, limited.key)).body.status).toBe('completed');
    expect(await usageOf(limited.key)).toBeCloseTo(1.6, 9);
    // $0.40 left on both instances: a chat fits, another job does not.
    expect((await chat(a, limited.key)).status).toBe(200);
    expect(
      (await call(a, 'POST', '/videos', { key: limited.key, body: { model: 'sim/video', prompt: 'a cat', duration: 8 } })).status,
    ).toBe(402);
  });

  it("keeps a crashed instance's hold until it expires, then lets it go uncharged", async () => {
    const limited = await newKey(0.002);
    const crashing = await startGatewayProcess({
      databaseUrl: a.store.url,
      redisUrl,
      simUrl: sim.url,
      providers: ['alpha'],
      models: CHAT_MODELS,
      spend: { holdMs: 3_000 },
    });
    // Killed whatever the test finds: a failed expectation must not leave the process behind.
    onTestFinished(() => crashing.crash());
    const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/chat/completions'] as number | undefined) ?? 0;
    const before = await simCalls();
    void chat(crashing, limited.key, { model: 'sim/hang' }).catch(() => undefined);
    await until(simCalls, (n) => n > before);
    await crashing.crash();
    // The dead instance's hold is still in Redis: the other instances count it until it lapses.
    expect((await chat(b, limited.key)).body.error?.message).toMatch(AFFORD);
    const after = await until(
      () => chat(b, limited.key),
      (r) => r.status === 200,
      10_000,
    );
    expect(after.status).toBe(200);
    const rows = await rowsOf(limited.data.hash);
    expect(rows).toHaveLength(1);
    expect(await usageOf(limited.key)).toBeCloseTo(rows[0]!.total_cost, 12);
  });
});

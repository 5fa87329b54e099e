import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ServerTool } from '../../src/plugins/server-tools/server-tool.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { startGatewayProcess } from '../support/gateway-process.js';
import { type SimModel, simCatalog } from '../support/sim-gateway.js';
import { until } from '../support/until.js';
import { jobEnded, submitAccepted } from '../support/video-jobs.js';
import { videoSimCatalog } from '../support/video-sim-catalog.js';

// A chat of "hello there" with max_tokens 20 can cost $0.00116 at these prices (9 prompt tokens and 20 completion
// tokens as the gateway counts them), and costs less: $0.01 covers a few at a time, and about ten in all.
const PRICES = { prompt: 0.00004, completion: 0.00004 };
const CHAT_MODELS: SimModel[] = [
  { id: 'sim/metered', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] },
  { id: 'sim/down', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500', ...PRICES }] },
  { id: 'sim/hang', endpoints: [{ provider: 'alpha', upstream: 'sim-model@hang=1', ...PRICES }] },
];
const AFFORD = /^This request requires more credits, or fewer max_tokens\. You requested up to 20 tokens, but can only afford (\d+)\.$/;

/** A server tool whose long answer (about 4,000 tokens) makes the loop's next model call cost about $0.16 at these prices. */
const almanacTool: ServerTool = {
  name: 'server_weather',
  type: 'service:web_fetch',
  plugin: 'web-fetch',
  definition: () => ({
    type: 'function',
    function: {
      name: 'server_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  }),
  execute: async () => ({ content: Array.from({ length: 4000 }, (_, i) => `w${i}`).join(' ') }),
};

type Gateway = Pick<RunningGateway, 'baseUrl' | 'managementKey'>;

const newKey = async (gw: Gateway, limit: number) => {
  const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: `limited ${limit}`, limit } });
  return created.body as { key: string; data: { hash: string } };
};
const chat = (gw: Pick<RunningGateway, 'baseUrl'>, key: string, fields: Record<string, unknown> = {}) =>
  call(gw, 'POST', '/chat/completions', {
    key,
    body: { model: 'sim/metered', max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }], ...fields },
  });
const usageOf = async (gw: Pick<RunningGateway, 'baseUrl'>, key: string) =>
  (await call(gw, 'GET', '/key', { key })).body.data.usage as number;
const ledgerOf = (gw: RunningGateway, hash: string) =>
  gw.store.db.selectFrom('generations').select(['id', 'total_cost', 'status']).where('api_key_hash', '=', hash).execute();

describe.each(testEngines)('spend reservations on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: simCatalog(sim.url, ['alpha'], CHAT_MODELS), serverTools: [almanacTool] });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it("holds 150 concurrent chats on a $0.01 key to its limit (plus one request's cost at most); the others get 402 saying what would fit", async () => {
    const limited = await newKey(gw, 0.01);
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => chat(gw, limited.key, { stream: i % 2 === 1 })));
    const answered = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(answered.length + refused.length).toBe(150);
    expect(answered.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(100);
    for (const r of refused) {
      expect(r.body.error.message).toMatch(AFFORD);
      expect(Number(AFFORD.exec(r.body.error.message)![1])).toBeLessThan(20);
      expect(r.body.error.metadata).toMatchObject({
        limit: 'api_key',
        required_usd: expect.any(Number),
        available_usd: expect.any(Number),
      });
    }
    const all = await ledgerOf(gw, limited.data.hash);
    const rows = all.filter((row) => row.status === 'success');
    expect(rows).toHaveLength(answered.length);
    // Each 402 is in the ledger too, at no cost (api/refusals/record-refusals.ts).
    expect(all.filter((row) => row.status === 'error' && row.total_cost === 0)).toHaveLength(refused.length);
    const usage = await usageOf(gw, limited.key);
    expect(usage).toBeCloseTo(
      rows.reduce((sum, row) => sum + row.total_cost, 0),
      12,
    );
    expect(usage).toBeLessThanOrEqual(0.01 + Math.max(...rows.map((row) => row.total_cost)));
  });

  it('never lets sequential requests spend past the limit, frees what failed requests held, and affords what the 402 says', async () => {
    const limited = await newKey(gw, 0.005);
    // A request that fails upstream is charged nothing, and leaves nothing held.
    for (let i = 0; i < 3; i++) expect((await chat(gw, limited.key, { model: 'sim/down' })).status).toBe(502);
    let refused: Awaited<ReturnType<typeof chat>> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const r = await chat(gw, limited.key);
      if (r.status === 402) refused = r;
      else expect(r.status).toBe(200);
    }
    expect(refused?.body.error.message).toMatch(AFFORD);
    expect(await usageOf(gw, limited.key)).toBeLessThanOrEqual(0.005);
    const affordable = Number(AFFORD.exec(refused!.body.error.message)![1]);
    if (affordable > 0) expect((await chat(gw, limited.key, { max_tokens: affordable })).status).toBe(200);
    expect(await usageOf(gw, limited.key)).toBeLessThanOrEqual(0.005);
  });

  it('holds a guardrail budget as it holds a key limit, naming the guardrail in the 402', async () => {
    const budgeted = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'budgeted' } });
    const guardrail = await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'Small budget', limit_usd: 0.004 } });
    await call(gw, 'POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, {
      key: gw.managementKey,
      body: { key_hashes: [budgeted.body.data.hash] },
    });
    const results = await Promise.all(Array.from({ length: 30 }, () => chat(gw, budgeted.body.key)));
    const refused = results.filter((r) => r.status === 402);
    expect(refused.length).toBeGreaterThan(20);
    expect(refused[0]!.body.error.metadata).toMatchObject({
      limit: 'guardrail_budget',
      guardrail_id: guardrail.body.data.id,
      budget_scope: 'api_key',
    });
    const rows = await ledgerOf(gw, budgeted.body.data.hash);
    expect(await usageOf(gw, budgeted.body.key)).toBeLessThanOrEqual(0.004 + Math.max(...rows.map((row) => row.total_cost)));
  });

  it("holds each further model call of a server-tool loop first: one the key's limit cannot cover is refused with 402 before it is made", async () => {
    const limited = await newKey(gw, 0.01);
    const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/chat/completions'] as number | undefined) ?? 0;
    const weather = { messages: [{ role: 'user', content: 'What is the weather in Paris?' }], plugins: [{ id: 'web-fetch' }] };
    for (const stream of [false, true]) {
      const before = await simCalls();
      const res = await chat(gw, limited.key, { ...weather, stream });
      // The model called the tool (one upstream call); the call with its answer was never made.
      expect(await simCalls()).toBe(before + 1);
      const refusal = stream
        ? JSON.parse(
            String(res.body)
              .split('\n')
              .find((line) => line.includes('"error"'))!
              .slice('data: '.length),
          ).error
        : res.body.error;
      expect(refusal).toMatchObject({
        code: 402,
        message: expect.stringMatching(
          /^This request requires more credits, or fewer max_tokens\. You requested up to 20 tokens, but can only afford 0\.$/,
        ),
      });
    }
    expect(await usageOf(gw, limited.key)).toBeLessThanOrEqual(0.01);
  });

  it('lets the hold of a request whose gateway crashed go with it: never charged, and the key can spend its whole limit again', async () => {
    const limited = await newKey(gw, 0.002);
    const crashing = await startGatewayProcess({ databaseUrl: gw.store.url, simUrl: sim.url, providers: ['alpha'], models: CHAT_MODELS });
    // Killed whatever the test finds: a failed expectation must not leave the process behind.
    onTestFinished(() => crashing.crash());
    const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/chat/completions'] as number | undefined) ?? 0;
    const before = await simCalls();
    void chat(crashing, limited.key, { model: 'sim/hang' }).catch(() => undefined);
    await until(simCalls, (n) => n > before);
    // While it is in flight, its hold leaves too little for a second request.
    expect((await chat(crashing, limited.key)).body.error?.message).toMatch(AFFORD);
    await crashing.crash();
    // $0.0019 is nearly all of the limit: 18 tokens of prompt and completion, nothing held any more.
    expect((await chat(gw, limited.key, { max_tokens: 38 })).status).toBe(200);
    // The one served, and the 402 of the crashed instance (at no cost).
    const rows = (await ledgerOf(gw, limited.data.hash)).filter((row) => row.status === 'success');
    expect(rows).toHaveLength(1);
    expect(await usageOf(gw, limited.key)).toBeCloseTo(rows[0]!.total_cost, 12);
    // A second gateway process starts, serves and crashes: more than the default 20 s on a loaded machine.
  }, 90_000);
});

// Eight seconds at $0.20 a second: $1.60 a job. The failing job renders 1.5 s, so that all ten submissions
// arrive while its hold stands, however slow the machine (at 50 ms a second job could fit after it failed).
const VIDEO_MODELS = [
  { id: 'sim/video', endpoints: [{ provider: 'openai-v' as const, upstream: 'sora-2@render_ms=300', price: 0.2 }] },
  { id: 'sim/video-slow', endpoints: [{ provider: 'openai-v' as const, upstream: 'sora-2@render_ms=5000', price: 0.2 }] },
  { id: 'sim/video-fails', endpoints: [{ provider: 'openai-v' as const, upstream: 'sora-2@render_ms=1500,fail=1', price: 0.2 }] },
];
const VIDEO_REFUSAL =
  "This request can cost up to $1.6, more than the $0.4 left of the API key's spending limit once the requests in flight are counted";

describe.each(testEngines)('video job reservations on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const submit = (key: string, model = 'sim/video', g: Pick<RunningGateway, 'baseUrl'> = gw) =>
    call(g, 'POST', '/videos', { key, body: { model, prompt: 'a cat', duration: 8 } });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      catalog: videoSimCatalog(sim.url, VIDEO_MODELS),
      videos: { tickMs: 20, intervalMs: 20, leaseMs: 2_000 },
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('accepts of ten $1.60 jobs on a $2 key only the one that fits, refuses the rest with 402, and charges what it made', async () => {
    const limited = await newKey(gw, 2);
    const first = await submitAccepted(gw, { model: 'sim/video', prompt: 'a cat', duration: 8 }, limited.key);
    for (let i = 0; i < 9; i++) {
      const refused = await submit(limited.key);
      expect(refused.status).toBe(402);
      expect(refused.body.error).toEqual({
        code: 402,
        message: VIDEO_REFUSAL,
        metadata: { limit: 'api_key', required_usd: 1.6, available_usd: 0.4 },
      });
    }
    expect((await jobEnded(gw, first.id, limited.key)).body.status).toBe('completed');
    // The job's hold became its cost: $0.40 is left, still too little.
    expect((await submit(limited.key)).body.error.message).toBe(VIDEO_REFUSAL);
    expect(await usageOf(gw, limited.key)).toBeCloseTo(1.6, 9);
  });

  it('takes one of ten jobs submitted at once, and lets a job that failed give its hold back', async () => {
    const limited = await newKey(gw, 2);
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(limited.key, 'sim/video-fails')));
    expect(results.map((r) => r.status).sort()).toEqual([202, ...Array(9).fill(402)]);
    const accepted = results.find((r) => r.status === 202)!;
    expect((await jobEnded(gw, accepted.body.id, limited.key)).body.status).toBe('failed');
    expect(
      await until(
        () => submit(limited.key),
        (r) => r.status === 202,
      ),
    ).toMatchObject({ status: 202 });
  });

  it("keeps a running job's hold with the job: another instance over the same database counts it", async () => {
    const limited = await newKey(gw, 2);
    await submitAccepted(gw, { model: 'sim/video-slow', prompt: 'a cat', duration: 8 }, limited.key);
    const other = await startGateway(engine, {
      databaseUrl: gw.store.url,
      catalog: videoSimCatalog(sim.url, VIDEO_MODELS),
      videos: { tickMs: 60_000 },
    });
    try {
      expect((await submit(limited.key, 'sim/video', other)).body.error?.message).toBe(VIDEO_REFUSAL);
    } finally {
      await other.close();
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const messages = [{ role: 'user', content: 'hello there' }];

describe.each(testEngines)('chat completions on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}, key = gw.managementKey) =>
    call(gw, 'POST', '/chat/completions', { key, body: { messages, ...body }, headers });
  const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/chat/completions'] as number | undefined) ?? 0;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta', 'gamma'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/flaky-meta',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/flaky-health',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=500' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/refused',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=400' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/down',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=500' },
            { provider: 'beta', upstream: 'sim-model@status=502' },
          ],
        },
        { id: 'sim/limited', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=429' }] },
        { id: 'sim/overloaded', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=529' }] },
        {
          id: 'sim/hang',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@hang=1' },
            { provider: 'gamma', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/broken-json',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@malformed=1' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        { id: 'sim/retry-after', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=429,retry_after=1' }] },
        { id: 'sim/backup', endpoints: [{ provider: 'gamma', upstream: 'sim-model' }] },
        {
          id: 'sim/narrow',
          endpoints: [{ provider: 'alpha', upstream: 'sim-model', supported: ['temperature', 'max_completion_tokens'] }],
        },
        { id: 'sim/pricey', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.01, completion: 0.01 }] },
        {
          id: 'sim/sticky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
      ],
      400,
    );
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 1500, totalWaitMs: 3000 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('answers in the spec 2.3 shape with the gateway id, serving model and provider, and cost', async () => {
    const res = await chat({ model: 'sim/fast' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^gen-\d+-[0-9a-f]+$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'sim/fast',
      provider: 'alpha',
      system_fingerprint: 'fp_sim',
      choices: [{ index: 0, message: { role: 'assistant', content: expect.stringContaining('hello there') }, finish_reason: 'stop' }],
    });
    const { prompt_tokens, completion_tokens, total_tokens, cost } = res.body.usage;
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
    expect(cost).toBeCloseTo(prompt_tokens * 0.000001 + completion_tokens * 0.000002, 12);
  });

  it('records the generation under the response id and charges the key', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'chatter', limit: 10 } });
    const res = await chat({ model: 'sim/fast' }, {}, created.body.key);
    const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: created.body.key });
    expect(gen.status).toBe(200);
    expect(gen.body.data).toMatchObject({
      id: res.body.id,
      model: 'sim/fast',
      provider_name: 'alpha',
      streamed: false,
      cancelled: false,
      finish_reason: 'stop',
      tokens_prompt: res.body.usage.prompt_tokens,
      tokens_completion: res.body.usage.completion_tokens,
      total_cost: res.body.usage.cost,
      api_type: 'completions',
    });
    const key = await call(gw, 'GET', '/key', { key: created.body.key });
    expect(key.body.data.usage).toBeCloseTo(res.body.usage.cost, 12);
    expect(key.body.data.limit_remaining).toBeCloseTo(10 - res.body.usage.cost, 12);
    expect((await call(gw, 'GET', '/generation?id=gen-nope', { key: created.body.key })).status).toBe(404);
  });

  it('refuses a spent key with 402 before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 10 } });
    expect((await chat({ model: 'sim/pricey', max_tokens: 20 }, {}, created.body.key)).status).toBe(200);
    // Reservations never let a request spend past the limit: the limit is lowered below what was spent.
    await call(gw, 'PATCH', `/keys/${created.body.data.hash}`, { key: gw.managementKey, body: { limit: 0.0001 } });
    const before = await simCalls();
    const refused = await chat({ model: 'sim/fast' }, {}, created.body.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe('API key spending limit of $0.0001 in total is reached');
    expect(await simCalls()).toBe(before);
  });

  describe('fallbacks', () => {
    it('moves to the next endpoint after a 5xx', async () => {
      const res = await chat({ model: 'sim/flaky' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('beta');
    });

    it('tries an endpoint that failed in the last 30 seconds last', async () => {
      await chat({ model: 'sim/flaky-health' });
      expect(await simCalls()).toBe(2);
      const second = await chat({ model: 'sim/flaky-health' });
      expect(second.body.provider).toBe('beta');
      expect(await simCalls()).toBe(3);
    });

    it('returns a request error (4xx) without trying another endpoint', async () => {
      const res = await chat({ model: 'sim/refused' });
      expect(res.status).toBe(400);
      expect(await simCalls()).toBe(1);
    });

    it('moves on after a hang once the provider timeout passes', async () => {
      const res = await chat({ model: 'sim/hang' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('gamma');
    });

    it('moves on after malformed JSON', async () => {
      const res = await chat({ model: 'sim/broken-json' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('beta');
    });

    it('tries fallback models in order', async () => {
      const res = await chat({ model: 'sim/down', models: ['sim/backup'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ model: 'sim/backup', provider: 'gamma' });
    });

    it('waits out a short Retry-After on the same endpoint', async () => {
      const res = await chat({ model: 'sim/retry-after' });
      expect(res.status).toBe(429);
      expect(await simCalls()).toBe(2);
      expect(res.body.error.metadata.attempts).toHaveLength(2);
    });

    it('says 502 with the provider and its raw error when every attempt fails', async () => {
      const res = await chat({ model: 'sim/down' }, { 'X-Service-Metadata': 'enabled' });
      expect(res.status).toBe(502);
      expect(res.body.error.message).toContain('Provider beta failed');
      expect(res.body.error.metadata.provider_name).toBe('beta');
      expect(res.body.error.metadata.raw).toMatchObject({ error: { type: 'server_error' } });
      expect(res.body.error.metadata.attempts.map((a: { provider: string }) => a.provider)).toEqual(['alpha', 'beta']);
      expect(res.body.service_metadata).toMatchObject({ attempt: 2, strategy: 'fallback' });
    });

    it.each([
      ['sim/limited', 429],
      ['sim/overloaded', 529],
    ])('maps %s to %i', async (model, status) => {
      expect((await chat({ model })).status).toBe(status);
    });
  });

  it('adds service_metadata when asked, also through the legacy header', async () => {
    // A model of its own: an endpoint that failed in another test would be tried last here.
    const res = await chat({ model: 'sim/flaky-meta' }, { 'X-Service-Experimental-Metadata': 'enabled' });
    expect(res.body.service_metadata).toMatchObject({
      attempt: 2,
      is_byok: false,
      requested: 'sim/flaky-meta',
      strategy: 'fallback',
      summary: 'served by beta (sim/flaky-meta) after 1 failed attempt',
      attempts: [
        { provider: 'alpha', status: 503 },
        { provider: 'beta', status: 200 },
      ],
      endpoints: {
        total: 2,
        available: [
          { provider: 'alpha', selected: false, outcome: 'failed' },
          { provider: 'beta', selected: true, outcome: 'success' },
        ],
      },
      pipeline: [expect.objectContaining({ type: 'routing' })],
    });
    expect((await chat({ model: 'sim/fast' })).body).not.toHaveProperty('service_metadata');
  });

  it('sends a stable keyed hash upstream instead of the raw user', async () => {
    await chat({ model: 'sim/fast', user: 'alice@example.com' });
    const first = (await readSimStats(sim.url)).lastRequestBody;
    await chat({ model: 'sim/fast', user: 'alice@example.com' });
    const second = (await readSimStats(sim.url)).lastRequestBody;
    expect(JSON.stringify(first)).not.toContain('alice');
    expect(first.user).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.user).toBe(first.user);
    await chat({ model: 'sim/fast', user: 'bob@example.com' });
    expect((await readSimStats(sim.url)).lastRequestBody.user).not.toBe(first.user);
  });

  it('drops parameters the endpoint does not support and never forwards gateway fields', async () => {
    await chat({
      model: 'sim/narrow',
      temperature: 0.5,
      top_p: 0.9,
      seed: 3,
      session_id: 's1',
      plugins: [{ id: 'response-healing' }],
      provider: { sort: 'price' },
    });
    const sent = (await readSimStats(sim.url)).lastRequestBody;
    expect(sent.temperature).toBe(0.5);
    expect(sent).not.toHaveProperty('top_p');
    expect(sent).not.toHaveProperty('seed');
    for (const field of ['session_id', 'plugins', 'provider', 'models']) expect(sent).not.toHaveProperty(field);
    expect(sent.model).toBe('sim-model');
  });

  it('keeps a session on the provider that served it first (body wins over the header)', async () => {
    const first = await chat({ model: 'sim/sticky', session_id: 'conv-1' });
    expect(first.body.provider).toBe('alpha');
    // Pin another session to beta by making alpha fail once for it.
    const pinned = await chat({ model: 'sim/flaky', session_id: 'conv-2' });
    expect(pinned.body.provider).toBe('beta');
    const again = await chat({ model: 'sim/sticky', session_id: 'conv-2' }, { 'x-session-id': 'conv-1' });
    expect(again.body.provider).toBe('beta');
    const viaHeader = await chat({ model: 'sim/sticky' }, { 'x-session-id': 'conv-2' });
    expect(viaHeader.body.provider).toBe('beta');
  });

  it.each([
    [{ model: 'sim/fast', temperature: 2.5 }, 'temperature must be <= 2'],
    [{ model: 'sim/fast', messages: [] }, 'messages must have at least 1 item'],
    [{ model: 'sim/fast', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role must be one of'],
    [
      { model: 'sim/fast', metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      'metadata must have at most 16 entries',
    ],
    [{ model: 'sim/fast', top_logprobs: 21 }, 'top_logprobs must be <= 20'],
    [{ model: 'sim/fast', session_id: 'x'.repeat(257) }, 'session_id must be at most 256 characters long'],
    [{ model: 'sim/fast', stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    [{ model: 'sim/fast', reasoning_effort: 'high', reasoning: { effort: 'low' } }, 'reasoning_effort'],
    [{ model: 'sim/fast', plugins: [{ id: 'teleport' }] }, 'plugins[0].id must be one of'],
    [{ model: undefined }, 'model is required'],
  ])('refuses %j with 400 before any upstream call', async (body, message) => {
    const res = await call(gw, 'POST', '/chat/completions', { key: gw.managementKey, body: { messages, ...body } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await simCalls()).toBe(0);
  });

  it('answers 404 for an unknown model, and 401 without a key', async () => {
    expect((await chat({ model: 'nobody/nothing' })).status).toBe(404);
    const anonymous = await call(gw, 'POST', '/chat/completions', { body: { model: 'sim/fast', messages } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe('Missing Authentication header');
  });
});

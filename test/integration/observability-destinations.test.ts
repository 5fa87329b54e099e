import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedLog } from '../../src/sim/receivers/receivers.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [{ id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] }];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(testEngines)('observability destinations on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const admin = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  const received = async () => (await (await fetch(`${sim.url}/__sim/receivers`)).json()) as ReceivedLog;
  const fault = (f: object) => fetch(`${sim.url}/__sim/receivers/fault`, { method: 'POST', body: JSON.stringify(f) });
  let userKey: string;
  const chat = () =>
    call(gw, 'POST', '/chat/completions', {
      key: userKey,
      body: { model: 'sim/a', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] },
    });
  const generationIds = new Set<string>();
  /** Generations recorded in the ledger (written after the answer): a later change of destinations cannot catch them. */
  const recorded = (ids: string[]) =>
    until(
      async () => (await gw.store.db.selectFrom('generations').select('id').where('id', 'in', ids).execute()).length,
      (count) => count === ids.length,
    );
  const chats = async (n: number) => {
    const answers = await Promise.all(Array.from({ length: n }, chat));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      generationIds.add(answer.body.id);
    }
    await recorded(answers.map((answer) => answer.body.id));
  };
  let ids: { webhook: string; otel: string; langfuse: string };
  let workspaceId: string;
  const broadcast = async (on: boolean) =>
    expect((await admin('PATCH', `/workspaces/${workspaceId}`, { is_observability_broadcast_enabled: on })).status).toBe(200);

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      catalog: simCatalog(sim.url, ['alpha'], MODELS),
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      destinations: { intervalMs: 50, backoffBaseMs: 50, backoffMaxMs: 300, timeoutMs: 10_000, retryWindowMs: 60_000 },
    });
    userKey = (await admin('POST', '/keys', { name: 'user' })).body.key;
    workspaceId = (await admin('GET', '/workspaces')).body.data[0].id;
    await broadcast(true);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('refuses bad input by field: unknown and unsupported types, sampling outside (0, 1], a URL that is not http(s), unknown config fields', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'carrier-pigeon', name: 'x', config: {} }, /^type must be one of arize, /],
      [
        { type: 'arize', name: 'x', config: {} },
        /type arize is not supported .*supported types: webhook, otel-collector, langfuse, s3, langsmith, posthog, datadog/,
      ],
      [
        { type: 'webhook', name: 'x', config: { url: 'http://127.0.0.1/' }, sampling_rate: 0 },
        /^sampling_rate must be greater than 0 and at most 1$/,
      ],
      [{ type: 'webhook', name: 'x', config: { url: 'http://127.0.0.1/' }, sampling_rate: 1.5 }, /^sampling_rate must be/],
      [{ type: 'webhook', name: 'x', config: { url: 'ftp://example.com/x' } }, /^config\.url must be an http\(s\) URL$/],
      [{ type: 'webhook', name: 'x', config: { url: 'http://127.0.0.1/', verb: 'POST' } }, /^config\.verb is not a field/],
      [{ type: 'langfuse', name: 'x', config: { publicKey: 'pk-1' } }, /^config\.secretKey is required/],
      [{ type: 'datadog', name: 'x', config: { apiKey: 'dd-key' } }, /^config\.mlApp is required/],
      [{ type: 'posthog', name: 'x', config: { apiKey: 'phc_1', endpoint: 'ftp://x' } }, /^config\.endpoint must be an http\(s\) URL$/],
      [
        {
          type: 'webhook',
          name: 'x',
          config: { url: 'http://127.0.0.1/' },
          filter_rules: { groups: [{ rules: [{ field: 'colour', operator: 'equals', value: 'x' }] }] },
        },
        /^filter_rules\.groups\[0\]\.rules\[0\]\.field must be one of/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await admin('POST', '/observability/destinations', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
  });

  it('creates destinations with secrets masked in every answer, at most 5 of a type, and soft-deletes them', async () => {
    const secret = 'Bearer hook-secret-0123456789';
    const created = await admin('POST', '/observability/destinations', {
      type: 'webhook',
      name: 'limit 1',
      config: { url: `${sim.url}/receivers/webhook/limit`, headers: { authorization: secret } },
      enabled: false,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'webhook',
      enabled: false,
      sampling_rate: 1,
      privacy_mode: false,
      api_key_hashes: null,
      filter_rules: null,
    });
    expect(created.body.data.config.headers.authorization).toBe('Bear...6789');
    expect(JSON.stringify((await admin('GET', '/observability/destinations')).body)).not.toContain(secret);
    for (let i = 2; i <= 5; i++)
      expect(
        (
          await admin('POST', '/observability/destinations', {
            type: 'webhook',
            name: `limit ${i}`,
            config: { url: `${sim.url}/x` },
            enabled: false,
          })
        ).status,
      ).toBe(201);
    const sixth = await admin('POST', '/observability/destinations', { type: 'webhook', name: 'limit 6', config: { url: `${sim.url}/x` } });
    expect(sixth.status).toBe(409);
    const list = (await admin('GET', '/observability/destinations')).body;
    for (const d of list.data) expect((await admin('DELETE', `/observability/destinations/${d.id}`)).body).toEqual({ deleted: true });
    expect((await admin('GET', `/observability/destinations/${created.body.data.id}`)).status).toBe(404);
    expect((await admin('GET', '/observability/destinations')).body).toEqual({ data: [], total_count: 0 });
  });

  it('sends every generation of a load to a webhook, an OTLP collector and Langfuse, as each protocol documents', async () => {
    const make = async (body: object) => {
      const answer = await admin('POST', '/observability/destinations', body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data.id as string;
    };
    ids = {
      webhook: await make({
        type: 'webhook',
        name: 'hook',
        config: { url: `${sim.url}/receivers/webhook/gen`, method: 'PUT', headers: { 'x-hook-token': 'hook-token-abcdefgh' } },
      }),
      otel: await make({ type: 'otel-collector', name: 'otel', config: { endpoint: `${sim.url}/receivers/otlp` } }),
      langfuse: await make({
        type: 'langfuse',
        name: 'langfuse',
        config: { baseUrl: `${sim.url}/receivers/langfuse`, publicKey: 'pk-lf-public-123456', secretKey: 'sk-lf-secret-123456' },
        broadcast_generation_cost: true,
      }),
    };
    // A PATCH sending the mask back keeps the secret.
    const patched = await admin('PATCH', `/observability/destinations/${ids.webhook}`, {
      config: { headers: { 'x-hook-token': 'hook...efgh' } },
    });
    expect(patched.status).toBe(200);

    await chats(30);
    const got = await until(received, (r) => r.webhook.length >= 30 && r.otlp.length >= 30 && r.langfuse.length >= 60);
    expect(new Set(got.webhook.map((w) => (w.body as { id: string }).id))).toEqual(generationIds);
    expect(got.webhook).toHaveLength(30);
    const hook = got.webhook[0]!;
    expect(hook.method).toBe('PUT');
    expect(hook.headers['x-hook-token']).toBe('hook-token-abcdefgh');
    expect(hook.body).toMatchObject({
      type: 'generation',
      model: 'sim/a',
      provider: 'alpha',
      status: 'success',
      usage: { total_tokens: expect.any(Number) },
    });
    expect(hook.body).not.toHaveProperty('cost');

    expect(got.otlp).toHaveLength(30);
    const span = got.otlp[0]!.span as { name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[] };
    expect(span.name).toBe('chat sim/a');
    expect(span.kind).toBe(3);
    const attrs = Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
    expect(attrs).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'sim/a', 'gen_ai.provider.name': 'alpha' });
    expect(Number(attrs['gen_ai.usage.input_tokens'])).toBeGreaterThan(0);

    expect(got.langfuse).toHaveLength(60);
    expect(got.langfuse[0]!.auth).toBe('pk-lf-public-123456');
    const generations = got.langfuse.filter((l) => l.event.type === 'generation-create').map((l) => l.event.body);
    expect(new Set(generations.map((g) => g.id))).toEqual(generationIds);
    expect(generations[0]).toMatchObject({
      model: 'sim-model',
      usageDetails: { input: expect.any(Number), output: expect.any(Number) },
      costDetails: { total: expect.any(Number) },
    });
    expect(Date.parse(String(generations[0]!.endTime))).toBeGreaterThanOrEqual(Date.parse(String(generations[0]!.startTime)));
    expect(got.langfuse.filter((l) => l.event.type === 'trace-create')).toHaveLength(30);
  });

  it('loses nothing while the receivers are down: the backlog arrives, once', async () => {
    const before = await received();
    await fault({ status: 503 });
    await chats(12);
    const waiting = await until(
      async () => (await admin('GET', `/observability/destinations/${ids.webhook}`)).body.data.delivery,
      (d) => d.pending === 12 && d.last_error !== null,
    );
    expect(waiting).toMatchObject({ pending: 12, dead_letters: 0 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await fault({});
    const got = await until(
      received,
      (r) =>
        r.webhook.length >= before.webhook.length + 12 &&
        r.otlp.length >= before.otlp.length + 12 &&
        r.langfuse.length >= before.langfuse.length + 24,
    );
    const hooks = got.webhook.slice(before.webhook.length).map((w) => w.body as { id: string; created_at: string });
    expect(hooks).toHaveLength(12);
    expect(new Set(got.webhook.map((w) => (w.body as { id: string }).id)).size).toBe(got.webhook.length);
    expect(new Set(got.webhook.map((w) => (w.body as { id: string }).id))).toEqual(generationIds);
    expect(got.otlp).toHaveLength(generationIds.size);
    expect((await admin('GET', `/observability/destinations/${ids.webhook}`)).body.data.delivery).toMatchObject({
      pending: 0,
      dead_letters: 0,
    });
  });

  it('dead-letters what a receiver refuses for good, counts it, and sends it again on retry', async () => {
    const id = (
      await admin('POST', '/observability/destinations', {
        type: 'webhook',
        name: 'wrong path',
        config: { url: `${sim.url}/receivers/nowhere` },
      })
    ).body.data.id as string;
    await chats(3);
    const dead = await until(
      async () => (await admin('GET', `/observability/destinations/${id}`)).body.data.delivery,
      (d) => d.dead_letters === 3 && d.last_error !== null,
    );
    expect(dead).toMatchObject({ dead_letters: 3, pending: 0 });
    expect(dead.last_error).toMatch(/answered 404/);
    // The list carries each destination's delivery state too (the console's destinations page reads it).
    const listed = (await admin('GET', '/observability/destinations')).body.data.find((d: { id: string }) => d.id === id);
    expect(listed.delivery).toEqual(dead);
    await admin('PATCH', `/observability/destinations/${id}`, { config: { url: `${sim.url}/receivers/webhook/fixed` } });
    expect((await admin('POST', `/observability/destinations/${id}/retry`)).body).toEqual({ data: { retried: 3 } });
    const got = await until(received, (r) => r.webhook.filter((w) => w.path === '/receivers/webhook/fixed').length >= 3);
    expect(got.webhook.filter((w) => w.path === '/receivers/webhook/fixed')).toHaveLength(3);
    expect((await admin('DELETE', `/observability/destinations/${id}`)).status).toBe(200);
  });

  it('honours api_key_hashes, filter_rules and sampling_rate', async () => {
    const other = (await admin('POST', '/keys', { name: 'other' })).body.data.hash as string;
    const make = async (name: string, extra: object) =>
      (
        await admin('POST', '/observability/destinations', {
          type: 'webhook',
          name,
          config: { url: `${sim.url}/receivers/webhook/${name}` },
          ...extra,
        })
      ).body.data.id as string;
    const destinations = [
      await make('other-key', { api_key_hashes: [other] }),
      await make('other-model', { filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'equals', value: 'sim/none' }] }] } }),
      await make('this-model', { filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'starts_with', value: 'sim/' }] }] } }),
      await make('half', { sampling_rate: 0.5 }),
    ];
    await chats(30);
    for (const id of destinations)
      await until(
        async () => (await admin('GET', `/observability/destinations/${id}`)).body.data.delivery,
        (d) => d.pending === 0,
      );
    const got = await received();
    const at = (name: string) => got.webhook.filter((w) => w.path === `/receivers/webhook/${name}`).length;
    expect(at('other-key')).toBe(0);
    expect(at('other-model')).toBe(0);
    expect(at('this-model')).toBe(30);
    expect(at('half')).toBeGreaterThan(3);
    expect(at('half')).toBeLessThan(27);
    for (const id of destinations) await admin('DELETE', `/observability/destinations/${id}`);
  });

  // That the request path never waits for a receiver: 'sends to one destination while another is stuck…' below.
  it('never reads a receiver’s 100 MB answer', async () => {
    await until(
      async () => (await admin('GET', `/observability/destinations/${ids.webhook}`)).body.data.delivery,
      (d) => d.pending === 0,
    );
    const before = (await received()).webhook.length;
    await fault({ bodyBytes: 100 * 1024 * 1024 });
    await chats(2);
    await until(
      async () => (await admin('GET', `/observability/destinations/${ids.webhook}`)).body.data.delivery,
      (d) => d.pending === 0,
      5_000,
    );
    await fault({});
    expect((await received()).webhook.length).toBe(before);
  });

  it('sends nothing while the workspace’s broadcast is off (is_observability_broadcast_enabled), and again once it is on', async () => {
    await until(
      async () => (await admin('GET', `/observability/destinations/${ids.webhook}`)).body.data.delivery,
      (d) => d.pending === 0,
    );
    const before = (await received()).webhook.length;
    await broadcast(false);
    await chats(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await admin('GET', `/observability/destinations/${ids.webhook}`)).body.data.delivery.pending).toBe(0);
    expect((await received()).webhook.length).toBe(before);
    await broadcast(true);
    await chats(2);
    const got = await until(received, (r) => r.webhook.length >= before + 2);
    expect(got.webhook.length).toBe(before + 2);
  });

  it('sends to LangSmith, PostHog and Datadog as each documents, content only where allowed', async () => {
    expect((await admin('PATCH', '/organization/settings', { store_content: true })).status).toBe(200);
    expect((await admin('PATCH', `/workspaces/${workspaceId}`, { is_observability_io_logging_enabled: true })).status).toBe(200);
    const make = async (body: object) => {
      const answer = await admin('POST', '/observability/destinations', body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data as { id: string; config: Record<string, unknown> };
    };
    const langsmith = await make({
      type: 'langsmith',
      name: 'langsmith',
      config: {
        endpoint: `${sim.url}/receivers/langsmith`,
        apiKey: 'lsv2_pt_secret_0123456789',
        project: 'gateway',
        workspaceId: 'tenant-1',
      },
      broadcast_generation_cost: true,
    });
    expect(langsmith.config).toMatchObject({ apiKey: 'lsv2...6789', project: 'gateway' });
    const posthog = await make({
      type: 'posthog',
      name: 'posthog',
      config: { endpoint: `${sim.url}/receivers/posthog`, apiKey: 'phc_project_key_0123456789' },
      privacy_mode: true,
    });
    expect(posthog.config.apiKey).toBe('phc_...6789');
    const datadog = await make({
      type: 'datadog',
      name: 'datadog',
      config: { url: `${sim.url}/receivers/datadog`, apiKey: 'dd0123456789abcdef0123456789abcd', mlApp: 'gateway-app' },
    });
    expect(datadog.config).toMatchObject({ apiKey: 'dd01...abcd', mlApp: 'gateway-app' });
    const ours = new Set<string>();
    for (const answer of await Promise.all(Array.from({ length: 5 }, chat))) ours.add(answer.body.id);
    const parsed = (log: { body: string }[]) => log.map((entry) => JSON.parse(entry.body));
    const got = await until(
      received,
      (r) =>
        parsed(r.langsmith).flatMap((b) => b.post).length >= 5 &&
        parsed(r.posthog).flatMap((b) => b.batch).length >= 5 &&
        parsed(r.datadog).flatMap((b) => b.data.attributes.spans).length >= 5,
    );

    expect(got.langsmith.every((r) => r.apiKey === 'lsv2_pt_secret_0123456789' && r.tenant === 'tenant-1')).toBe(true);
    const runs = parsed(got.langsmith).flatMap((b) => b.post);
    expect(new Set(runs.map((run) => run.extra.metadata.generation_id))).toEqual(ours);
    for (const run of runs) {
      expect(run.trace_id).toBe(run.id);
      expect(run.dotted_order).toBe(`${run.start_time.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z')}${run.id}`);
    }
    expect(runs[0]).toMatchObject({
      name: 'sim/a',
      run_type: 'llm',
      session_name: 'gateway',
      inputs: { messages: [{ role: 'user', content: 'hello' }] },
      outputs: {
        choices: [{ message: { role: 'assistant', content: expect.any(String) } }],
        usage_metadata: { input_tokens: expect.any(Number), output_tokens: expect.any(Number), total_cost: expect.any(Number) },
      },
      extra: { metadata: { ls_provider: 'alpha', ls_model_name: 'sim-model' } },
    });

    expect(got.posthog.every((r) => r.apiKey === 'phc_project_key_0123456789')).toBe(true);
    const events = parsed(got.posthog).flatMap((b) => b.batch);
    expect(new Set(events.map((e) => e.properties.$ai_trace_id))).toEqual(ours);
    expect(events[0]).toMatchObject({
      event: '$ai_generation',
      properties: { $ai_model: 'sim-model', $ai_provider: 'alpha', $ai_latency: expect.any(Number), $process_person_profile: false },
    });
    // privacy_mode: metadata only.
    for (const e of events) expect(Object.keys(e.properties).filter((k) => k === '$ai_input' || k === '$ai_output_choices')).toEqual([]);

    expect(got.datadog.every((r) => r.apiKey === 'dd0123456789abcdef0123456789abcd')).toBe(true);
    const spans = parsed(got.datadog).flatMap((b) => b.data.attributes.spans);
    expect(new Set(spans.map((span) => span.meta.metadata.generation_id))).toEqual(ours);
    expect(parsed(got.datadog)[0].data.attributes.ml_app).toBe('gateway-app');
    expect(spans[0]).toMatchObject({
      parent_id: 'undefined',
      status: 'ok',
      meta: {
        kind: 'llm',
        input: { messages: [{ role: 'user', content: 'hello' }] },
        metadata: { model_name: 'sim-model', model_provider: 'alpha' },
      },
      metrics: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    // start_ns is exact nanoseconds: whole milliseconds followed by six zeros, as digits.
    expect(got.datadog[0]!.body).toMatch(/"start_ns":\d{13}000000[,}]/);
    for (const d of [langsmith, posthog, datadog]) await admin('DELETE', `/observability/destinations/${d.id}`);
  });

  it('sends to one destination while another is stuck on a receiver that does not answer', async () => {
    // A webhook receiver that holds every request until released: its destination's backlog cannot move.
    const held: (() => void)[] = [];
    const stuck = createServer((_req, res) => held.push(() => res.end('{}')));
    await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
    const stuckUrl = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}/hook`;
    const make = async (body: object) => (await admin('POST', '/observability/destinations', body)).body.data.id as string;
    const blocked = await make({ type: 'webhook', name: 'stuck', config: { url: stuckUrl } });
    const flowing = await make({
      type: 'langfuse',
      name: 'flowing',
      config: { baseUrl: `${sim.url}/receivers/langfuse`, publicKey: 'pk-lf-flowing-1234', secretKey: 'sk-lf-flowing-1234' },
    });
    try {
      const langfuseIds = async () =>
        new Set((await received()).langfuse.filter((l) => l.event.type === 'generation-create').map((l) => l.event.body.id));
      const first = await chat();
      expect(first.status).toBe(200);
      await until(
        async () => held.length,
        (n) => n > 0,
      );
      // The stuck webhook holds its first event; a chat made meanwhile is answered (the request path never waits for a
      // receiver), and its generation reaches Langfuse all the same.
      const second = await chat();
      expect(second.status).toBe(200);
      // Well within the stuck request's timeout (10 s): a sender that waited for it would not have sent it yet.
      const sent = await until(langfuseIds, (got) => got.has(second.body.id), 5_000);
      expect(sent.has(second.body.id)).toBe(true);
      expect((await admin('GET', `/observability/destinations/${blocked}`)).body.data.delivery.pending).toBeGreaterThan(0);
    } finally {
      for (const id of [blocked, flowing]) await admin('DELETE', `/observability/destinations/${id}`);
      for (const release of held) release();
      stuck.closeAllConnections();
      await new Promise((resolve) => stuck.close(resolve));
    }
  });
});

describe.each(testEngines)('observability destinations with two instances on $name', (engine) => {
  let sim: Simulator;
  let first: RunningGateway;
  let second: RunningGateway;
  const tuning = { intervalMs: 20, batchSize: 5, backoffBaseMs: 50, backoffMaxMs: 300, timeoutMs: 10_000, retryWindowMs: 60_000 };

  beforeAll(async () => {
    sim = await startSimulator();
    const options = {
      catalog: simCatalog(sim.url, ['alpha'], MODELS),
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      destinations: tuning,
    };
    first = await startGateway(engine, options);
    second = await startGateway(engine, { ...options, databaseUrl: first.store.url });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sim?.close();
  });

  it('sends each event once while both instances’ senders compete for the destination', async () => {
    const admin = (method: string, path: string, body?: unknown) => call(first, method, path, { key: first.managementKey, body });
    const workspaceId = (await admin('GET', '/workspaces')).body.data[0].id;
    await admin('PATCH', `/workspaces/${workspaceId}`, { is_observability_broadcast_enabled: true });
    const created = await admin('POST', '/observability/destinations', {
      type: 'webhook',
      name: 'shared',
      config: { url: `${sim.url}/receivers/webhook/shared` },
    });
    expect(created.status).toBe(201);
    const userKey = (await admin('POST', '/keys', { name: 'user' })).body.key as string;
    const ids: string[] = [];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(first, 'POST', '/chat/completions', {
            key: userKey,
            body: { model: 'sim/a', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
          }),
        ),
      );
      for (const answer of answers) ids.push(answer.body.id);
    }
    const got = await until(
      async () => (await (await fetch(`${sim.url}/__sim/receivers`)).json()) as ReceivedLog,
      (r) => r.webhook.length >= 40,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = ((await (await fetch(`${sim.url}/__sim/receivers`)).json()) as ReceivedLog).webhook.map(
      (w) => (w.body as { id: string }).id,
    );
    expect(got.webhook.length).toBeGreaterThanOrEqual(40);
    expect(sent).toHaveLength(40);
    expect(new Set(sent)).toEqual(new Set(ids));
  });
});

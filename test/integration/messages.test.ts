import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

interface NamedEvent {
  event: string;
  data: any;
}

const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe.each(testEngines)('POST /messages on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      [{ id: 'anth', kind: 'anthropic' }, { id: 'anth-two', kind: 'anthropic' }, 'alpha'],
      [
        { id: 'claude/sim', endpoints: [{ provider: 'anth', upstream: 'claude-sim' }] },
        { id: 'gpt/sim', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        {
          id: 'claude/fallback',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=529' },
            { provider: 'anth-two', upstream: 'claude-sim' },
          ],
        },
        {
          id: 'mixed/fallback',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=500' },
            { provider: 'alpha', upstream: 'sim-model' },
          ],
        },
        // The same, for the service_metadata test alone: a failure of the others' would have it tried last.
        {
          id: 'claude/fallback-meta',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=529' },
            { provider: 'anth-two', upstream: 'claude-sim' },
          ],
        },
        {
          id: 'mixed/fallback-meta',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=500' },
            { provider: 'alpha', upstream: 'sim-model' },
          ],
        },
        { id: 'claude/breaks', endpoints: [{ provider: 'anth', upstream: 'claude-sim@chunks=6,fail_after=2,fail_mode=error-event' }] },
        { id: 'gpt/breaks', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=3' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  const headers = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
  const send = (body: Record<string, unknown>, key = gw.managementKey, extra: Record<string, string> = {}) =>
    fetch(`${gw.baseUrl}/messages`, {
      method: 'POST',
      headers: { ...headers(key), ...extra },
      body: JSON.stringify({ max_tokens: 256, messages: [{ role: 'user', content: 'Hello there' }], ...body }),
    });
  const create = async (body: Record<string, unknown>, key?: string) => {
    const response = await send(body, key);
    return { status: response.status, body: (await response.json()) as any };
  };
  const stream = async (
    body: Record<string, unknown>,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; events: NamedEvent[]; contentType: string | null }> => {
    const response = await send({ ...body, stream: true }, gw.managementKey, extra);
    const events: NamedEvent[] = [];
    const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? 'message', data: JSON.parse(e.data) }) });
    const text = await response.text();
    parser.feed(text);
    return { status: response.status, events, contentType: response.headers.get('content-type') };
  };
  const upstreamBody = async () => ((await (await fetch(`${sim.url}/__sim/stats`)).json()) as any).lastRequestBody;
  const generation = async (id: string) => (await call(gw, 'GET', `/generation?id=${id}`, { key: gw.managementKey })).body.data;

  it('answers a Message from an Anthropic endpoint, sending the client body untranslated, and records the generation', async () => {
    const { status, body } = await create({
      model: 'claude/sim',
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      metadata: { user_id: 'alice' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: 'claude/sim', stop_reason: 'end_turn', stop_sequence: null });
    expect(body.id).toMatch(/^gen-/);
    expect(body.content[0]).toMatchObject({ type: 'text', text: expect.any(String) });
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    const sent = await upstreamBody();
    // The client's own blocks (cache_control on the system block) go as they were, the end user hashed.
    expect(sent).toMatchObject({
      model: 'claude-sim',
      max_tokens: 256,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    });
    expect(sent.metadata.user_id).not.toBe('alice');
    const row = await generation(body.id);
    expect(row).toMatchObject({
      api_type: 'completions',
      model: 'claude/sim',
      provider_name: 'anth',
      streamed: false,
      tokens_prompt: body.usage.input_tokens,
      tokens_completion: body.usage.output_tokens,
    });
    expect(row.total_cost).toBeGreaterThan(0);
  });

  it('translates for an OpenAI endpoint: the chat answer comes back as a Message', async () => {
    const { status, body } = await create({ model: 'gpt/sim', system: 'Be brief.', stop_sequences: ['zzz'] });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'message',
      model: 'gpt/sim',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: expect.any(String) }],
    });
    const sent = await upstreamBody();
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(sent.stop).toEqual(['zzz']);
    const row = await generation(body.id);
    expect(row).toMatchObject({ api_type: 'completions', provider_name: 'alpha', tokens_completion: body.usage.output_tokens });
  });

  it.each(['claude/sim', 'gpt/sim'])('calls a forced tool and takes its result back on %s', async (model) => {
    const first = await create({
      model,
      tools: [WEATHER],
      tool_choice: { type: 'tool', name: 'get_weather' },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(first.status).toBe(200);
    expect(first.body.stop_reason).toBe('tool_use');
    const call = first.body.content.find((block: any) => block.type === 'tool_use');
    expect(call).toMatchObject({ id: expect.any(String), name: 'get_weather', input: expect.any(Object) });
    const second = await create({
      model,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.body.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21°C' }] },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.stop_reason).toBe('end_turn');
    expect(second.body.content.some((block: any) => block.type === 'text')).toBe(true);
  });

  it('passes thinking through natively, signature included', async () => {
    const { status, body } = await create({ model: 'claude/sim', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(status).toBe(200);
    expect(body.content[0]).toMatchObject({ type: 'thinking', thinking: expect.any(String), signature: expect.any(String) });
    expect(body.content[0].signature.length).toBeGreaterThan(0);
    expect((await upstreamBody()).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it.each(['claude/sim', 'gpt/sim'])(
    'streams named events from message_start to message_stop on %s, and records the stream',
    async (model) => {
      const { status, events, contentType } = await stream({ model });
      expect(status).toBe(200);
      expect(contentType).toMatch(/^text\/event-stream/);
      const names = events.map((e) => e.event);
      expect(names[0]).toBe('message_start');
      expect(names).toContain('content_block_start');
      expect(names).toContain('content_block_delta');
      expect(names).toContain('ping');
      expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
      for (const e of events) expect(e.data.type).toBe(e.event);
      const start = events[0]!.data.message;
      expect(start).toMatchObject({ model, role: 'assistant' });
      const text = events
        .filter((e) => e.data.delta?.type === 'text_delta')
        .map((e) => e.data.delta.text)
        .join('');
      expect(text.length).toBeGreaterThan(0);
      const delta = events.at(-2)!.data;
      expect(delta.delta.stop_reason).toBe('end_turn');
      expect(delta.usage.output_tokens).toBeGreaterThan(0);
      const row = await generation(start.id);
      expect(row).toMatchObject({ api_type: 'completions', model, streamed: true, status: 'success' });
    },
  );

  it('streams thinking untranslated from an Anthropic endpoint: its signature_delta included', async () => {
    const { events } = await stream({ model: 'claude/sim', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(events.find((e) => e.event === 'content_block_start')!.data.content_block).toEqual({
      type: 'thinking',
      thinking: '',
      signature: '',
    });
    const signature = events.find((e) => e.data.delta?.type === 'signature_delta');
    expect(signature!.data.delta.signature.length).toBeGreaterThan(0);
    expect(Object.keys(events[0]!.data.message)).not.toContain('provider');
  });

  it('streams a tool call as a tool_use block with input_json_delta on a translated endpoint', async () => {
    const { events } = await stream({
      model: 'gpt/sim',
      tools: [WEATHER],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const start = events.find((e) => e.event === 'content_block_start' && e.data.content_block.type === 'tool_use');
    expect(start!.data.content_block).toMatchObject({ name: 'get_weather', input: {} });
    const json = events
      .filter((e) => e.data.delta?.type === 'input_json_delta')
      .map((e) => e.data.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual(expect.any(Object));
    expect(events.at(-2)!.data.delta.stop_reason).toBe('tool_use');
  });

  it.each(['claude/fallback', 'mixed/fallback'])('falls back when the first endpoint fails (%s), streamed or not', async (model) => {
    const plain = await create({ model });
    expect(plain.status).toBe(200);
    expect(plain.body.content[0].type).toBe('text');
    const streamed = await stream({ model });
    expect(streamed.events.at(-1)!.event).toBe('message_stop');
    const row = await generation(plain.body.id);
    expect(row.provider_name).not.toBe('anth');
  });

  const METADATA = { 'x-service-metadata': 'enabled' };

  it.each([
    ['claude/sim', 'anth', 1],
    ['gpt/sim', 'alpha', 1],
    ['claude/fallback-meta', 'anth-two', 2],
    ['mixed/fallback-meta', 'alpha', 2],
  ])('streams %s with the cost billed on message_delta and service_metadata on message_stop when asked', async (model, provider, tries) => {
    // The failing endpoint first: the plan's order is otherwise weighted by price, at random.
    const { events } = await stream({ model, provider: { order: ['anth'] } }, METADATA);
    const [delta, stop] = events.slice(-2).map((e) => e.data);
    const row = await generation(events[0]!.data.message.id);
    expect(row.provider_name).toBe(provider);
    expect(delta.usage.cost).toBeCloseTo(row.total_cost, 12);
    expect(row.total_cost).toBeGreaterThan(0);
    expect(stop.service_metadata).toMatchObject({ attempt: tries, requested: model });
    const attempts = stop.service_metadata.attempts;
    expect(attempts.map((a: any) => a.provider)).toEqual(tries === 1 ? [provider] : ['anth', provider]);
    expect(attempts.at(-1).status).toBe(200);
    if (tries === 2) expect(attempts[0].status).toBeGreaterThanOrEqual(500);
    const selected = stop.service_metadata.endpoints.available.filter((e: any) => e.selected);
    expect(selected).toEqual([expect.objectContaining({ provider })]);
  });

  it.each(['claude/sim', 'gpt/sim'])(
    'answers %s with the cost billed in usage, as the stream does, and no service_metadata unasked',
    async (model) => {
      const plain = await create({ model });
      expect(plain.body.usage.cost).toBeCloseTo((await generation(plain.body.id)).total_cost, 12);
      expect(plain.body).not.toHaveProperty('service_metadata');
      const { events } = await stream({ model });
      expect(events.at(-1)!.data).toEqual({ type: 'message_stop' });
      expect(events.at(-2)!.data.usage.cost).toBeGreaterThan(0);
    },
  );

  it.each(['claude/breaks', 'gpt/breaks'])('ends a stream that breaks mid-way (%s) with an error event', async (model) => {
    const { status, events } = await stream({ model });
    expect(status).toBe(200);
    expect(events[0]!.event).toBe('message_start');
    const last = events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('mid-stream') } });
    const row = await generation(events[0]!.data.message.id);
    expect(row.status).toBe('error');
  });

  it("refuses a bad x-api-key with 401 in Anthropic's shape", async () => {
    const { status, body } = await create({ model: 'claude/sim' }, 'sk-not-a-key');
    expect(status).toBe(401);
    expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'Invalid API key' } });
    const missing = await fetch(`${gw.baseUrl}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'Missing Authentication header' },
    });
  });

  it('takes x-api-key on every route, the bearer token first when both come', async () => {
    const own = await fetch(`${gw.baseUrl}/key`, { headers: { 'x-api-key': gw.managementKey } });
    expect(own.status).toBe(200);
    const both = await fetch(`${gw.baseUrl}/key`, { headers: { 'x-api-key': gw.managementKey, authorization: 'Bearer sk-not-a-key' } });
    expect(both.status).toBe(401);
    expect(((await both.json()) as any).error).toMatchObject({ code: 401, message: 'Invalid API key' });
  });

  it("names the field and the rule of an invalid body, in Anthropic's shape", async () => {
    const response = await fetch(`${gw.baseUrl}/messages`, {
      method: 'POST',
      headers: headers(gw.managementKey),
      body: JSON.stringify({ model: 'claude/sim', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('max_tokens');
    const empty = await create({ model: 'claude/sim', messages: [{ role: 'user', content: [] }] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('messages[0].content') });
    const unknown = await create({ model: 'nobody/nothing' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found_error');
  });

  it('answers 402 billing_error when the key cannot cover the request, before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.0000001 } });
    const { status, body } = await create({ model: 'claude/sim', max_tokens: 4096 }, created.body.key);
    expect(status).toBe(402);
    expect(body).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    expect(((await (await fetch(`${sim.url}/__sim/stats`)).json()) as any).requests['/v1/messages']).toBeUndefined();
  });

  it('runs guardrails: a block is 403 permission_error, and a redaction reaches even an Anthropic endpoint (sent translated)', async () => {
    const made = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'guarded' } })).body;
    const guardrail = async (rules: Record<string, unknown>) => {
      const id = (await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'Messages guardrail', ...rules } })).body
        .data.id as string;
      await call(gw, 'POST', `/guardrails/${id}/assignments/keys`, { key: gw.managementKey, body: { key_hashes: [made.data.hash] } });
      return id;
    };
    const blocking = await guardrail({ blocked_keywords: ['falcon'] });
    const blocked = await create({ model: 'claude/sim', messages: [{ role: 'user', content: 'about project Falcon' }] }, made.key);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({
      type: 'error',
      error: { type: 'permission_error', message: expect.stringContaining('guardrail') },
    });
    await call(gw, 'DELETE', `/guardrails/${blocking}`, { key: gw.managementKey });
    const redacting = await guardrail({ content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
    const redacted = await create({ model: 'claude/sim', messages: [{ role: 'user', content: 'write to alice@example.com' }] }, made.key);
    expect(redacted.status).toBe(200);
    expect(JSON.stringify(await upstreamBody())).not.toContain('alice@example.com');
    await call(gw, 'DELETE', `/guardrails/${redacting}`, { key: gw.managementKey });
  });

  it('counts the input tokens of a Messages body without calling any upstream', async () => {
    const count = (body: Record<string, unknown>, key = gw.managementKey) =>
      fetch(`${gw.baseUrl}/messages/count_tokens`, { method: 'POST', headers: headers(key), body: JSON.stringify(body) }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as any }),
      );
    const short = await count({ model: 'claude/sim', messages: [{ role: 'user', content: 'Hi' }] });
    const long = await count({
      model: 'gpt/sim',
      system: 'You are a careful assistant.',
      messages: [{ role: 'user', content: 'Hi, tell me about the weather in Paris today.' }],
      tools: [WEATHER],
    });
    expect(short).toMatchObject({ status: 200, body: { input_tokens: expect.any(Number) } });
    expect(long.body.input_tokens).toBeGreaterThan(short.body.input_tokens);
    expect((await count({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'Hi' }] })).body).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error' },
    });
    expect((await count({ model: 'claude/sim', messages: [] })).status).toBe(400);
    expect((await count({ model: 'claude/sim', messages: [{ role: 'user', content: 'Hi' }] }, 'sk-nobody')).body.error.type).toBe(
      'authentication_error',
    );
    expect(((await (await fetch(`${sim.url}/__sim/stats`)).json()) as any).requests['/v1/messages']).toBeUndefined();
  });

  it('applies a preset saved from a Messages body', async () => {
    const saved = await call(gw, 'POST', '/presets/brief/messages', {
      key: gw.managementKey,
      body: { model: 'gpt/sim', max_tokens: 100, system: 'Answer in one line.', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.designated_version).toMatchObject({ system_prompt: 'Answer in one line.', config: { model: 'gpt/sim' } });
    const { status, body } = await create({ model: '@preset/brief' });
    expect(status).toBe(200);
    expect(body.model).toBe('gpt/sim');
    expect((await upstreamBody()).messages[0]).toMatchObject({ role: 'system' });
  });
});

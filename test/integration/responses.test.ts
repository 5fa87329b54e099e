import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { readSse } from '../support/read-sse.js';
import { simCatalog } from '../support/sim-gateway.js';

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

const outputText = (response: any): string =>
  response.output
    .filter((item: any) => item.type === 'message')
    .flatMap((item: any) => item.content)
    .map((part: any) => part.text ?? '')
    .join('');

describe.each(testEngines)('POST /responses on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const respond = (body: Record<string, unknown>, key = gw.managementKey, headers: Record<string, string> = {}) =>
    call(gw, 'POST', '/responses', { key, body, headers });
  const stream = async (body: Record<string, unknown>) => {
    const response = await fetch(`${gw.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    return (await readSse(response)).chunks;
  };
  const simRequests = async () => (await readSimStats(sim.url)).requests as Record<string, number>;
  const lastUpstreamBody = async () => (await readSimStats(sim.url)).lastRequestBody;
  const generation = (id: string) => gw.store.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta', { id: 'claude', kind: 'anthropic' }, { id: 'gem', kind: 'gemini' }],
      [
        { id: 'sim/native', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        { id: 'sim/reasoner', endpoints: [{ provider: 'alpha', upstream: 'sim-reason-model' }] },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim' }] },
        { id: 'sim/gemini', endpoints: [{ provider: 'gem', upstream: 'sim-gemini' }] },
        { id: 'sim/claude-breaks', endpoints: [{ provider: 'claude', upstream: 'claude-sim@chunks=6,fail_after=6' }] },
        {
          id: 'sim/down',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=500' },
            { provider: 'claude', upstream: 'claude-sim@status=529' },
          ],
        },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/flaky-claude',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'claude', upstream: 'claude-sim' },
          ],
        },
        { id: 'sim/breaks', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=5,fail_mode=error-event' }] },
        { id: 'sim/slow', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=40,chunk_delay=100' }] },
        { id: 'sim/pricey', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.01, completion: 0.01 }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  describe.each([
    { endpoint: 'native OpenAI', model: 'sim/native', upstreamPath: '/v1/responses', provider: 'alpha' },
    { endpoint: 'translated Anthropic', model: 'sim/claude', upstreamPath: '/v1/messages', provider: 'claude' },
  ])('on a $endpoint endpoint', ({ model, upstreamPath, provider }) => {
    it('answers a string input with a Response, the generation id, usage and cost, and records api_type completions as every chat-like generation', async () => {
      const res = await respond({ model, input: 'hello there', instructions: 'Be brief.' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: expect.stringMatching(/^gen-/),
        object: 'response',
        status: 'completed',
        model,
        instructions: 'Be brief.',
        error: null,
        usage: {
          input_tokens: expect.any(Number),
          output_tokens: expect.any(Number),
          total_tokens: expect.any(Number),
          cost: expect.any(Number),
        },
      });
      expect(res.body.output[0]).toMatchObject({
        type: 'message',
        role: 'assistant',
        status: 'completed',
        id: expect.stringMatching(/^msg_/),
      });
      expect(outputText(res.body)).toContain('hello there');
      expect(await simRequests()).toMatchObject({ [upstreamPath]: 1 });
      const row = await generation(res.body.id);
      expect(row).toMatchObject({
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        provider_name: provider,
        finish_reason: 'stop',
        tokens_prompt: res.body.usage.input_tokens,
        tokens_completion: res.body.usage.output_tokens,
      });
      expect(row?.total_cost).toBeCloseTo(res.body.usage.cost, 12);
      const shown = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
      expect(shown.body.data.api_type).toBe('completions');
    });

    it('streams the typed events in order, the terminal one with usage and cost after the ledger row', async () => {
      const events = await stream({ model, input: [{ role: 'user', content: [{ type: 'input_text', text: 'tell me a story' }] }] });
      const types = events.map((event) => event.type);
      expect(types.slice(0, 4)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
      ]);
      expect(types).toContain('response.output_text.delta');
      expect(types.slice(-4)).toEqual([
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
      const text = events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join('');
      expect(text).toContain('tell me a story');
      const done = events.at(-1);
      expect(done.response).toMatchObject({ id: events[0].response.id, model, status: 'completed', usage: { cost: expect.any(Number) } });
      expect(outputText(done.response)).toBe(text);
      const row = await generation(done.response.id);
      expect(row).toMatchObject({
        api_type: 'completions',
        status: 'success',
        streamed: 1,
        tokens_completion: done.response.usage.output_tokens,
      });
    });

    it('calls a function tool, then answers from its function_call_output', async () => {
      const first = await respond({ model, input: 'What is the weather in Paris?', tools: [weatherTool] });
      expect(first.status).toBe(200);
      const call_ = first.body.output.find((item: any) => item.type === 'function_call');
      expect(call_).toMatchObject({
        type: 'function_call',
        name: 'get_weather',
        call_id: expect.any(String),
        id: expect.stringMatching(/^fc_/),
      });
      expect(JSON.parse(call_.arguments)).toHaveProperty('city');
      expect((await generation(first.body.id))?.finish_reason).toBe('tool_calls');

      const second = await respond({
        model,
        tools: [weatherTool],
        input: [
          { role: 'user', content: 'What is the weather in Paris?' },
          { type: 'function_call', call_id: call_.call_id, name: call_.name, arguments: call_.arguments },
          { type: 'function_call_output', call_id: call_.call_id, output: 'Sunny, 24 degrees' },
        ],
      });
      expect(second.status).toBe(200);
      if (model === 'sim/native') {
        expect(outputText(second.body)).toContain('Sunny, 24 degrees');
        expect(await lastUpstreamBody()).toMatchObject({
          input: [{}, { type: 'function_call' }, { type: 'function_call_output', output: 'Sunny, 24 degrees' }],
        });
      } else {
        // Anthropic's tool_use and tool_result blocks carry the call and its output; the simulated Claude answers in text.
        expect(second.body.output).toEqual([expect.objectContaining({ type: 'message' })]);
        expect(await lastUpstreamBody()).toMatchObject({
          messages: [
            { role: 'user' },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: call_.call_id, name: 'get_weather', input: JSON.parse(call_.arguments) }],
            },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: call_.call_id, content: 'Sunny, 24 degrees' }] },
          ],
        });
      }
    });

    it('streams a function call as its arguments deltas', async () => {
      const events = await stream({ model, input: 'What is the weather in Paris?', tools: [weatherTool], tool_choice: 'required' });
      const added = events.find((event) => event.type === 'response.output_item.added');
      expect(added.item).toMatchObject({ type: 'function_call', name: 'get_weather' });
      const args = events
        .filter((event) => event.type === 'response.function_call_arguments.delta')
        .map((event) => event.delta)
        .join('');
      const done = events.find((event) => event.type === 'response.function_call_arguments.done');
      expect(done).toMatchObject({ item_id: added.item.id, output_index: 0, arguments: args, name: 'get_weather' });
      expect(JSON.parse(args)).toHaveProperty('city');
      expect(events.at(-1).response.output[0]).toMatchObject({ type: 'function_call', arguments: args });
    });

    it.runIf(model === 'sim/native')('answers text.format json_schema with JSON of that schema', async () => {
      const schema = {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer' } },
        required: ['name', 'age'],
        additionalProperties: false,
      };
      const res = await respond({
        model,
        input: 'Make up a person',
        text: { format: { type: 'json_schema', name: 'person', schema, strict: true } },
      });
      expect(res.status).toBe(200);
      expect(res.body.text.format).toMatchObject({ type: 'json_schema', name: 'person' });
      const person = JSON.parse(outputText(res.body));
      expect(person).toEqual({ name: expect.any(String), age: expect.any(Number) });
    });

    it('serves a stateless Codex-style turn: earlier reasoning and calls in input, store false, include, streamed', async () => {
      const events = await stream({
        model,
        instructions: 'You are a coding agent.',
        store: false,
        include: ['reasoning.encrypted_content'],
        parallel_tool_calls: false,
        prompt_cache_key: 'session-1',
        reasoning: { effort: 'medium', summary: 'auto' },
        text: { verbosity: 'low' },
        tools: [{ ...weatherTool, strict: false }],
        tool_choice: 'auto',
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] },
          {
            type: 'reasoning',
            id: 'rs_1',
            summary: [{ type: 'summary_text', text: 'Look it up.' }],
            content: null,
            encrypted_content: 'opaque',
          },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
          { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
        ],
      });
      expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
      if (model === 'sim/native') {
        expect(await lastUpstreamBody()).toMatchObject({
          include: ['reasoning.encrypted_content'],
          prompt_cache_key: 'session-1',
          input: [{}, { type: 'reasoning', encrypted_content: 'opaque' }, {}, {}],
        });
      }
    });

    it('answers a response cut at max_output_tokens as incomplete, streamed or not', async () => {
      const cut = await respond({ model, input: 'tell me a long story about the sea', max_output_tokens: 3 });
      expect(cut.body).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
      expect((await generation(cut.body.id))?.finish_reason).toBe('length');
      const events = await stream({ model, input: 'tell me a long story about the sea', max_output_tokens: 3 });
      expect(events.at(-1)).toMatchObject({
        type: 'response.incomplete',
        response: { status: 'incomplete', usage: { cost: expect.any(Number) } },
      });
      expect((await generation(events.at(-1).response.id))?.finish_reason).toBe('length');
    });

    it('falls back when the first endpoint fails', async () => {
      const fallback = model === 'sim/native' ? 'sim/flaky' : 'sim/flaky-claude';
      const res = await respond({ model: fallback, input: 'hello there' }, gw.managementKey, { 'x-service-metadata': 'enabled' });
      expect(res.status).toBe(200);
      expect(res.body.service_metadata.attempts.map((a: any) => a.status)).toEqual([503, 200]);
      expect((await generation(res.body.id))?.provider_name).toBe(model === 'sim/native' ? 'beta' : 'claude');
      const events = await stream({ model: fallback, input: 'hello there' });
      expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
    });
  });

  it('answers text.format json_schema on a translated Gemini endpoint, sent as its response schema', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const res = await respond({
      model: 'sim/gemini',
      input: 'Name a city',
      text: { format: { type: 'json_schema', name: 'city', schema } },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(outputText(res.body))).toEqual({ city: expect.any(String) });
    expect(await simRequests()).toMatchObject({ '/v1beta/models/sim-gemini:generateContent': 1 });
  });

  it('ends a translated stream that breaks midway with an error event and response.failed', async () => {
    const events = await stream({ model: 'sim/claude-breaks', input: 'tell me a story' });
    expect(events.at(-2)).toMatchObject({ type: 'error', error: { code: 'server_error', message: expect.stringContaining('mid-stream') } });
    expect(events.at(-1)).toMatchObject({ type: 'response.failed', response: { status: 'failed', model: 'sim/claude-breaks' } });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    expect(await generation(events.at(-1).response.id)).toMatchObject({ api_type: 'completions', status: 'error', streamed: 1 });
  });

  it('answers a stream whose every attempt failed with the error envelope, and records it', async () => {
    const response = await fetch(`${gw.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/down', input: 'hi', stream: true }),
    });
    expect(response.status).toBeGreaterThanOrEqual(500);
    const body = (await response.json()) as { error: unknown };
    expect(body.error).toMatchObject({ code: response.status, message: expect.any(String) });
    const row = await gw.store.db
      .selectFrom('generations')
      .selectAll()
      .where('api_type', '=', 'completions')
      .where('status', '=', 'error')
      .where('model', '=', 'sim/down')
      .executeTakeFirst();
    expect(row).toMatchObject({ streamed: 1 });
  });

  it('keeps the conversation and the answer with the ledger row while the organization stores content', async () => {
    const storeContent = (on: boolean) =>
      call(gw, 'PATCH', '/organization/settings', { key: gw.managementKey, body: { store_content: on } });
    const content = (id: string) => call(gw, 'GET', `/generation/content?id=${id}`, { key: gw.managementKey });
    expect((await storeContent(true)).status).toBe(200);
    try {
      const res = await respond({ model: 'sim/native', input: 'Hello!', instructions: 'Be brief.' });
      expect((await content(res.body.id)).body.data).toMatchObject({
        input: {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hello!' },
          ],
        },
        output: { completion: outputText(res.body), reasoning: null },
      });
      const events = await stream({ model: 'sim/claude', input: 'Stream to me' });
      const done = events.at(-1);
      expect((await content(done.response.id)).body.data).toMatchObject({ output: { completion: outputText(done.response) } });
    } finally {
      await storeContent(false);
    }
  });

  it('goes through the guardrails: a block is a 403 before any upstream call, a redaction reaches the upstream', async () => {
    const made = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'guarded' } })).body;
    const guardrail = async (rules: Record<string, unknown>) => {
      const id = (await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'Test guardrail', ...rules } })).body.data
        .id as string;
      await call(gw, 'POST', `/guardrails/${id}/assignments/keys`, { key: gw.managementKey, body: { key_hashes: [made.data.hash] } });
      return id;
    };
    const blocking = await guardrail({ blocked_keywords: ['falcon'] });
    const blocked = await respond({ model: 'sim/native', input: 'tell me about project falcon' }, made.key);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.metadata.patterns).toEqual(['falcon']);
    expect(await simRequests()).toEqual({});
    await call(gw, 'DELETE', `/guardrails/${blocking}`, { key: gw.managementKey });

    const redacting = await guardrail({ content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
    const answered = await respond({ model: 'sim/native', input: 'I am ada@example.org' }, made.key);
    expect(answered.status).toBe(200);
    // The redacted conversation is the chat request's: the OpenAI endpoint gets it as chat, never the client's body.
    expect(await simRequests()).toEqual({ '/v1/chat/completions': 1 });
    expect(await lastUpstreamBody()).toMatchObject({ messages: [{ role: 'user', content: 'I am [EMAIL]' }] });
    await call(gw, 'DELETE', `/guardrails/${redacting}`, { key: gw.managementKey });
  });

  it('records a stream the client left as cancelled', async () => {
    const controller = new AbortController();
    const response = await fetch(`${gw.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/slow', input: 'tell me a long story', stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('response.output_text.delta')) seen += (await reader.read()).value ?? '';
    const id = /"id":"(gen-[^"]+)"/.exec(seen)![1]!;
    controller.abort();
    await expect.poll(async () => (await generation(id))?.status, { timeout: 5_000 }).toBe('cancelled');
    expect(await generation(id)).toMatchObject({ api_type: 'completions', cancelled: 1, streamed: 1 });
  });

  it('sends the client body natively to an OpenAI endpoint, reasoning settings included', async () => {
    const high = await respond({
      model: 'sim/reasoner',
      input: 'think hard',
      reasoning: { effort: 'high' },
      max_output_tokens: 2000,
      provider: { sort: 'price' },
    });
    expect(high.status).toBe(200);
    expect(await lastUpstreamBody()).toMatchObject({
      model: 'sim-reason-model',
      input: 'think hard',
      reasoning: { effort: 'high' },
      max_output_tokens: 2000,
      store: false,
    });
    expect(await lastUpstreamBody()).not.toHaveProperty('provider');
    const low = await respond({ model: 'sim/reasoner', input: 'think hard', reasoning: { effort: 'low' } });
    expect(high.body.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(low.body.usage.output_tokens_details.reasoning_tokens);
    expect((await generation(high.body.id))?.tokens_reasoning).toBe(high.body.usage.output_tokens_details.reasoning_tokens);
  });

  it('passes reasoning effort to a translated endpoint as chat reasoning', async () => {
    const res = await respond({ model: 'sim/claude', input: 'think hard', reasoning: { effort: 'high' }, max_output_tokens: 4000 });
    expect(res.status).toBe(200);
    expect(await lastUpstreamBody()).toMatchObject({ thinking: { type: 'enabled', budget_tokens: expect.any(Number) } });
  });

  it('ends a stream that breaks midway as OpenAI does, with an error event then response.failed, and records the error', async () => {
    const events = await stream({ model: 'sim/breaks', input: 'tell me a story' });
    // The documented fields, and the nested error object the API sends (and the openai SDK throws on).
    expect(events.at(-2)).toMatchObject({
      type: 'error',
      code: 'server_error',
      message: expect.stringContaining('mid-stream'),
      param: null,
      error: { code: 'server_error', message: expect.stringContaining('mid-stream') },
    });
    const last = events.at(-1);
    expect(last).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: expect.any(String), message: expect.stringContaining('mid-stream') } },
    });
    expect(last.sequence_number).toBe(events.at(-2).sequence_number + 1);
    expect(await generation(last.response.id)).toMatchObject({ api_type: 'completions', status: 'error', streamed: 1 });
  });

  it('refuses with 402 a key whose limit cannot cover the request, before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.000001 } });
    const refused = await respond({ model: 'sim/pricey', input: 'hello there' }, created.body.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe(402);
    expect(await simRequests()).toEqual({});
  });

  it('refuses previous_response_id and a bad item with a 400 naming the field', async () => {
    const previous = await respond({ model: 'sim/native', input: 'hi', previous_response_id: 'resp_123' });
    expect(previous.status).toBe(400);
    expect(previous.body.error.message).toContain('previous_response_id');
    for (const field of [{ conversation: 'conv_1' }, { background: true }]) {
      const refused = await respond({ model: 'sim/native', input: 'hi', ...field });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(`${Object.keys(field)[0]} is not supported`);
    }
    const bad = await respond({ model: 'sim/native', input: [{ type: 'function_call_output', output: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('call_id');
    const hosted = await respond({ model: 'sim/native', input: 'hi', tools: [{ type: 'web_search' }] });
    expect(hosted.status).toBe(400);
    expect(hosted.body.error.message).toMatch(/tools\[0\]\.type.*function/);
    const unknown = await respond({ model: 'sim/nope', input: 'hi' });
    expect(unknown.status).toBe(404);
  });

  it('applies a preset saved from a Responses body (/presets/{slug}/responses)', async () => {
    const saved = await call(gw, 'POST', '/presets/terse/responses', {
      key: gw.managementKey,
      body: { model: 'sim/native', input: 'ignored', instructions: 'Answer in one word.', temperature: 0.3 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ slug: 'terse' });
    const res = await respond({ model: '@preset/terse', input: 'hello there' });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('sim/native');
    // A preset's system prompt and settings are in the chat request: the endpoint gets that, translated.
    expect(await simRequests()).toMatchObject({ '/v1/chat/completions': 1 });
    expect(await lastUpstreamBody()).toMatchObject({
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Answer in one word.' },
        { role: 'user', content: 'hello there' },
      ],
    });
  });
});

describe.each(testEngines)('POST /responses on an OpenAI-compatible host without it, on $name', (engine) => {
  let sim: Simulator;
  let host: Server;
  let gw: RunningGateway;
  const paths: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator();
    // A host that copies Chat Completions only: its chat goes to the simulator, anything else is OpenAI's 404.
    host = createServer(async (req, res) => {
      paths.push(req.url ?? '');
      let body = '';
      for await (const piece of req) body += piece;
      if (req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ error: { message: `Invalid URL (POST ${req.url})`, type: 'invalid_request_error', param: null, code: null } }),
          );
        return;
      }
      const upstream = await fetch(`${sim.url}${req.url}`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body,
      });
      res
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        .end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const { port } = host.address() as AddressInfo;
    gw = await startGateway(engine, {
      catalog: simCatalog(
        `http://127.0.0.1:${port}`,
        ['compat'],
        [{ id: 'compat/model', endpoints: [{ provider: 'compat', upstream: 'sim-model' }] }],
      ),
    });
  });
  afterAll(async () => {
    await gw.close();
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
    await sim.close();
  });

  it('sends the request as chat to the same endpoint after its 404, streamed or not', async () => {
    const res = await call(gw, 'POST', '/responses', { key: gw.managementKey, body: { model: 'compat/model', input: 'hello there' } });
    expect(res.status).toBe(200);
    expect(outputText(res.body)).toContain('hello there');
    expect(paths.splice(0)).toEqual(['/v1/responses', '/v1/chat/completions']);
    const response = await fetch(`${gw.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'compat/model', input: 'hello there', stream: true }),
    });
    const { chunks: events } = await readSse(response);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
    expect(paths.splice(0)).toEqual(['/v1/responses', '/v1/chat/completions']);
  });
});

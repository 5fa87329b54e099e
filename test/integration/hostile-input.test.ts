import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * Property: whatever a client sends to POST /chat/completions, the answer is
 * a completion or a 4xx in the spec's envelope — never a 5xx from the
 * gateway itself (the upstream here is healthy) and never a crash. Bodies are
 * drawn near the valid shape, where translations meet inputs their authors
 * did not think of, and through each protocol the gateway translates to.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;

const text = fc.string({ maxLength: 40 });
const anyJson = fc.jsonValue({ maxDepth: 3 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const part = fc.oneof(
  fc.record({
    type: fc.constant('text'),
    text,
    cache_control: maybe(fc.record({ type: fc.constant('ephemeral'), ttl: maybe(fc.constantFrom('5m', '1h')) })),
  }),
  fc.record({
    type: fc.constant('image_url'),
    image_url: fc.record({
      url: fc.oneof(
        fc.webUrl(),
        fc.constant('data:image/png;base64,iVBORw0KGgo='),
        fc.constant('data:;base64,'),
        fc.constant('data:image/png,raw'),
        text,
      ),
      detail: maybe(fc.constantFrom('auto', 'low', 'high')),
    }),
  }),
  fc.record({ type: fc.constant('input_audio'), input_audio: fc.record({ data: text, format: text }) }),
  fc.record({
    type: fc.constant('file'),
    file: fc.record({
      filename: maybe(text),
      file_data: maybe(fc.oneof(text, fc.constant('data:application/pdf;base64,JVBERi0='))),
      file_id: maybe(text),
    }),
  }),
);
const textPart = fc.record({ type: fc.constant('text'), text });
const toolCall = fc.record({
  id: text,
  type: fc.constant('function'),
  function: fc.record({
    name: text,
    arguments: fc.oneof(text, fc.constant('{"a":1}'), fc.constant(''), fc.constant('[1,2]'), fc.constant('null')),
  }),
});
/** Messages of the valid shapes, with edge values: empty text, unmatched tool results, tool calls with broken arguments. */
const message = fc.oneof(
  fc.record(
    { role: fc.constantFrom('system', 'developer'), content: fc.oneof(text, fc.array(textPart, { maxLength: 2 })) },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    { role: fc.constant('user'), content: fc.oneof(text, fc.array(part, { maxLength: 3 })), name: maybe(text) },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    {
      role: fc.constant('assistant'),
      content: fc.oneof(text, fc.constant(null), fc.array(textPart, { maxLength: 2 })),
      tool_calls: maybe(fc.array(toolCall, { maxLength: 2 })),
      reasoning: maybe(text),
    },
    { requiredKeys: ['role'] },
  ),
  fc.record({ role: fc.constant('tool'), content: fc.oneof(text, fc.array(textPart, { maxLength: 2 })), tool_call_id: text }),
);
const schemaish = fc.oneof(fc.constant({ type: 'object', properties: {} }), fc.constant({}), fc.dictionary(text, anyJson, { maxKeys: 3 }));
const tool = fc.record({
  type: fc.constant('function'),
  function: fc.record(
    { name: text, description: maybe(text), parameters: maybe(schemaish), strict: maybe(fc.boolean()) },
    { requiredKeys: ['name'] },
  ),
});
const effort = fc.constantFrom('max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none');
const fields = fc.record(
  {
    stream: fc.boolean(),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    top_p: fc.double({ min: 0, max: 1, noNaN: true }),
    top_k: fc.integer({ min: 0, max: 1_000 }),
    frequency_penalty: fc.double({ min: -2, max: 2, noNaN: true }),
    max_tokens: fc.integer({ min: 0, max: 10_000_000 }),
    max_completion_tokens: fc.integer({ min: 0, max: 10_000_000 }),
    stop: fc.oneof(text, fc.array(text, { maxLength: 4 })),
    tools: fc.array(tool, { maxLength: 2 }),
    tool_choice: fc.oneof(
      fc.constantFrom('none', 'auto', 'required'),
      fc.record({ type: fc.constant('function'), function: fc.record({ name: text }) }),
    ),
    parallel_tool_calls: fc.boolean(),
    response_format: fc.oneof(
      fc.record({ type: fc.constantFrom('text', 'json_object') }),
      fc.record({
        type: fc.constant('json_schema'),
        json_schema: fc.record({ name: text, schema: maybe(schemaish), strict: maybe(fc.boolean()) }, { requiredKeys: ['name'] }),
      }),
    ),
    reasoning: fc.record(
      { effort: maybe(effort), max_tokens: maybe(fc.integer({ min: 0, max: 100_000 })), exclude: maybe(fc.boolean()) },
      { requiredKeys: [] },
    ),
    logprobs: fc.boolean(),
    top_logprobs: fc.integer({ min: 0, max: 20 }),
    seed: fc.integer(),
    user: text,
    session_id: fc.string({ maxLength: 256 }),
    cache_control: fc.record({ type: fc.constant('ephemeral'), ttl: maybe(fc.constantFrom('5m', '1h')) }),
    service_tier: fc.constantFrom('auto', 'default', 'fast', 'flex', 'priority', 'scale'),
    modalities: fc.array(fc.constantFrom('text', 'image', 'audio'), { maxLength: 3 }),
    debug: fc.record({ echo_upstream_body: fc.boolean() }),
  },
  { requiredKeys: [] },
);
const validShaped = fc
  .record({ messages: fc.array(message, { minLength: 1, maxLength: 5 }), fields })
  .map(({ messages, fields }) => ({ messages, ...fields }));
/** A valid-shaped body with one field, or one message, replaced by any JSON value. */
const hostile = fc
  .tuple(
    validShaped,
    fc.constantFrom(
      'messages',
      'temperature',
      'tools',
      'tool_choice',
      'response_format',
      'reasoning',
      'stop',
      'provider',
      'plugins',
      'metadata',
      'logit_bias',
      'prediction',
      'image_config',
      'stream_options',
      'trace',
      'stop_server_tools_when',
      'message',
    ),
    anyJson,
  )
  .map(([b, field, value]) => (field === 'message' ? { ...b, messages: [...b.messages, value] } : { ...b, [field]: value }));

describe('hostile chat bodies', () => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['oa', { id: 'an', kind: 'anthropic' }, { id: 'ge', kind: 'gemini' }],
      [
        { id: 'fuzz/openai', endpoints: [{ provider: 'oa', upstream: 'sim-model' }] },
        { id: 'fuzz/anthropic', endpoints: [{ provider: 'an', upstream: 'claude-sim' }] },
        { id: 'fuzz/gemini', endpoints: [{ provider: 'ge', upstream: 'gemini-sim' }] },
      ],
    );
    gw = await startGateway(sqlite, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it.each(['fuzz/openai', 'fuzz/anthropic', 'fuzz/gemini'])('%s answers every body with a completion or a 4xx envelope', async (model) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: validShaped, weight: 3 }, { arbitrary: hostile, weight: 1 }), async (b) => {
        const res = await call(gw, 'POST', '/chat/completions', { key: gw.managementKey, body: { model, ...b } });
        if (res.status === 200) return;
        expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        expect(res.body).toMatchObject({ error: { code: res.status, message: expect.any(String) } });
      }),
      { numRuns: 200, seed: 20261123 },
    );
  });
});

describe('hostile bodies and queries on every other endpoint', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway(sqlite);
  });
  afterAll(async () => {
    await gw.close();
  });

  const queryValue = fc.oneof(text, fc.integer().map(String), fc.constantFrom('-1', '0', '1e309', 'NaN', '', '[]', 'true'));
  const routes: [string, string][] = [
    ['POST', '/keys'],
    ['PATCH', '/keys/0000000000000000000000000000000000000000000000000000000000000000'],
    ['POST', '/auth/keys/code'],
    ['POST', '/auth/keys'],
    ['POST', '/rerank'],
    ['POST', '/presets'],
    ['PATCH', '/presets/some-preset'],
    ['POST', '/videos'],
  ];

  it.each(routes)('%s %s answers any JSON body with a 2xx or a 4xx envelope', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, fc.dictionary(text, anyJson, { maxKeys: 6 })), async (b) => {
        const res = await call(gw, method, path, { key: gw.managementKey, body: JSON.stringify(b) });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject({ error: { code: res.status, message: expect.any(String) } });
      }),
      { numRuns: 60, seed: 20261123 },
    );
  });

  it('refuses a JSON number too large to be finite (1e309 parses as Infinity)', async () => {
    const res = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: '{"name":"huge","limit":1e309}' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('limit must be of type number or null');
  });

  it.each(['/keys', '/organization/members', '/presets', '/generation', '/videos/models', '/models'])(
    'GET %s answers any query with a 2xx or a 4xx envelope',
    async (path) => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom('offset', 'limit', 'id', 'include_disabled', 'workspace_id', 'supported_parameters', 'category'),
            queryValue,
            { maxKeys: 3 },
          ),
          async (q) => {
            const res = await call(gw, 'GET', `${path}?${new URLSearchParams(q)}`, { key: gw.managementKey });
            expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
            if (res.status >= 400) expect(res.body).toMatchObject({ error: { code: res.status, message: expect.any(String) } });
          },
        ),
        { numRuns: 60, seed: 20261123 },
      );
    },
  );
});

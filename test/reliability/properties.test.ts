import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';
import { portOf, type RawExchange, request } from './raw-http.js';

/**
 * Properties over what a client controls before any route runs and at the
 * edges of the JSON rules: whatever the headers and however deep or
 * poisoned the body, the answer is a success or a 4xx in the envelope, never
 * a 5xx, and the server keeps serving.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;

const isEnvelope = (answer: { status?: number; body?: unknown }) => {
  const error = (answer.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return error?.code === answer.status && typeof error?.message === 'string';
};

/** A JSON value nested up to thousands of levels (objects or arrays), with a leaf at the bottom. */
const depth = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 10_000 }));
const nested = fc
  .tuple(depth, fc.boolean())
  .map(([depth, arrays]) => `${(arrays ? '[' : '{"k":').repeat(depth)}1${(arrays ? ']' : '}').repeat(depth)}`);
/** A JSON object text whose key may poison a prototype. */
const poisoned = fc.constantFrom(
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"constructor":"fine"}',
  '{"\\u005f_proto__":{}}',
);
/** Where in a chat body a value is put. */
const place = fc.constantFrom('metadata', 'tools-parameters', 'message-content', 'provider', 'response-format', 'top-level');

function chatBody(where: string, value: string): string {
  const user = '{"role":"user","content":"hi"}';
  switch (where) {
    case 'metadata':
      return `{"model":"prop/model","messages":[${user}],"metadata":${value}}`;
    case 'tools-parameters':
      return `{"model":"prop/model","messages":[${user}],"tools":[{"type":"function","function":{"name":"f","parameters":${value}}}]}`;
    case 'message-content':
      return `{"model":"prop/model","messages":[{"role":"user","content":[{"type":"text","text":"hi","extra":${value}}]}]}`;
    case 'provider':
      return `{"model":"prop/model","messages":[${user}],"provider":${value}}`;
    case 'response-format':
      return `{"model":"prop/model","messages":[${user}],"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":${value}}}}`;
    default:
      return `{"model":"prop/model","messages":[${user}],"x":${value}}`;
  }
}

/** Header names and values as a client may send them: tokens, odd bytes, sometimes far too long. */
const headerName = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,24}$/);
const headerValue = fc.oneof(
  { arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: 40_000 }).map((n) => 'v'.repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', '\t', 'é', '\u0001', 'a\rb'), weight: 1 },
);
const specialHeader = fc.oneof(
  fc.record({
    name: fc.constant('Content-Type'),
    value: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data',
      '',
      'application/x-www-form-urlencoded',
    ),
  }),
  fc.record({ name: fc.constant('Content-Length'), value: fc.constantFrom('0', '5', '-1', 'abc', '99999999999', '1e3', '') }),
  fc.record({ name: fc.constant('Transfer-Encoding'), value: fc.constantFrom('chunked', 'gzip', 'identity', 'chunked, chunked') }),
  fc.record({ name: fc.constant('Authorization'), value: fc.constantFrom('Bearer', 'Bearer ', 'Basic abc', 'Bearer sk-nope') }),
  fc.record({ name: fc.constant('X-Request-Id'), value: headerValue }),
);
const headers = fc.array(
  fc.oneof({ arbitrary: fc.record({ name: headerName, value: headerValue }), weight: 3 }, { arbitrary: specialHeader, weight: 2 }),
  { maxLength: 6 },
);

describe('properties of the edge', () => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(sim.url, ['oa'], [{ id: 'prop/model', endpoints: [{ provider: 'oa', upstream: 'sim-model' }] }]);
    // Short request timeouts: a header set that promises more body than it sends is answered (408) quickly.
    gw = await startGateway(sqlite, { catalog, clientLimits: { headersTimeoutMs: 500, bodyTimeoutMs: 500 } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const alive = async () => {
    const res = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'prop/model', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(res.status).toBe(200);
  };

  it('answers a chat body nested to any depth, or carrying prototype keys, with 200 or a 4xx envelope', async () => {
    await fc.assert(
      fc.asyncProperty(place, fc.oneof(nested, poisoned), async (where, value) => {
        const res = await call(gw, 'POST', '/chat/completions', { key: gw.managementKey, body: chatBody(where, value) });
        if (res.status === 200) return;
        expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        expect(isEnvelope(res), JSON.stringify(res.body)).toBe(true);
      }),
      { numRuns: 120, seed: 20261124 },
    );
    await alive();
  });

  it('answers a chat with any headers with 200 or a 4xx envelope', async () => {
    const port = portOf(gw.baseUrl);
    const body = JSON.stringify({ model: 'prop/model', messages: [{ role: 'user', content: 'hi' }] });
    await fc.assert(
      fc.asyncProperty(headers, async (extra) => {
        const names = new Set(extra.map((h) => h.name.toLowerCase()));
        const lines = [
          'POST /api/v1/chat/completions HTTP/1.1',
          'Host: gateway',
          ...(names.has('authorization') ? [] : [`Authorization: Bearer ${gw.managementKey}`]),
          ...(names.has('content-type') ? [] : ['Content-Type: application/json']),
          ...(names.has('content-length') || names.has('transfer-encoding') ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
          ...extra.map((h) => `${h.name}: ${h.value}`),
        ];
        const answer: RawExchange = await request(port, `${lines.join('\r\n')}\r\n\r\n${body}`);
        expect(answer.status, answer.text.slice(0, 500)).toBeDefined();
        if (answer.status === 200) return;
        expect(answer.status, answer.text.slice(0, 500)).toBeGreaterThanOrEqual(400);
        expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(500);
        expect(isEnvelope(answer), answer.text.slice(0, 500)).toBe(true);
      }),
      { numRuns: 150, seed: 20261124 },
    );
    await alive();
  });
});

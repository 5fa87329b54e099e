import { maxHeaderSize } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { exchange, portOf, request } from './raw-http.js';

/**
 * What Node and Fastify's router answer themselves, before any route runs,
 * leaves in the spec's envelope, and the connection is closed after a
 * request that broke the protocol. Bodies that break the gateway's JSON
 * rules are refused with a message that says which rule and where.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;

describe('protocol errors', () => {
  let gw: RunningGateway;
  let port: number;

  beforeAll(async () => {
    gw = await startGateway(sqlite);
    port = portOf(gw.baseUrl);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers a 70 KB header with 431 in the envelope and closes the connection', async () => {
    const answer = await exchange(port, `GET /api/v1/models HTTP/1.1\r\nHost: gateway\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ error: { code: 431, message: `The request headers exceed the ${maxHeaderSize}-byte limit` } });
    expect(answer.text).toMatch(/\r\nx-error-code: GW_ERR_HEADERS_TOO_LARGE\r\n/i);
  });

  it.each([
    ['a method that is not one', 'GARBAGE /api/v1/models HTTP/1.1\r\nHost: gateway\r\n\r\n'],
    ['a request line that is not HTTP', 'GET /api/v1/models HTTX/1.1\r\nHost: gateway\r\n\r\n'],
    ['bytes that are not a request', '\x00\x01\x02\r\n\r\n'],
    ['a header line without a colon', 'GET /api/v1/models HTTP/1.1\r\nHost gateway\r\n\r\n'],
  ])('answers %s with 400 in the envelope and closes the connection', async (_, bytes) => {
    const answer = await exchange(port, bytes);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 400, message: expect.stringMatching(/^Malformed HTTP request: \w/) } });
  });

  it('answers chunk extensions over Node’s limit with 413 in the envelope', async () => {
    const answer = await exchange(
      port,
      `POST /api/v1/keys HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: { code: 413, message: 'The chunk extensions of the request body exceed the 16384-byte limit' } });
  });

  it('answers a URL that does not decode (/%zz) with 400 in the envelope', async () => {
    const answer = await request(port, 'GET /api/v1/%zz HTTP/1.1\r\nHost: gateway\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: { code: 400, message: 'Malformed URL /api/v1/%zz: a % must start a percent-encoded byte such as %20' },
    });
    expect(answer.text).toMatch(/\r\nx-error-code: GW_ERR_MALFORMED_URL\r\n/i);
  });

  it('answers a path parameter longer than the router takes with 414 in the envelope', async () => {
    const res = await call(gw, 'GET', `/videos/${'j'.repeat(150)}`, { key: gw.managementKey });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ error: { code: 414, message: 'A path parameter is longer than 100 characters' } });
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_PATH_PARAMETER_TOO_LONG');
  });
});

describe('bodies that break the JSON rules', () => {
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway(sqlite);
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['{"name":"k","__proto__":{"admin":true}}', '__proto__: a "__proto__" key is refused'],
    ['{"name":"k","limit":null,"x":[{"__proto__":{}}]}', 'x[0].__proto__: a "__proto__" key is refused'],
    ['{"name":"k","constructor":{"prototype":{"admin":true}}}', 'constructor: a "constructor" key holding a "prototype" is refused'],
  ])('refuses %s saying why, not as malformed JSON', async (body, start) => {
    const res = await call(gw, 'POST', '/keys', { key: gw.managementKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `${start}, because it could change the prototype of objects built from the body (prototype poisoning); rename the key`,
    );
  });

  it('refuses nesting deeper than 64 levels with 400 naming the field', async () => {
    const deep = `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`;
    const res = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deep}}}]}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: 400,
        message: 'tools[0].function.parameters.a.a.a.a… nests objects and arrays deeper than 64 levels, the limit of a JSON body',
      },
    });
  });
});

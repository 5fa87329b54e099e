import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../protocol/upstream.js';
import { sendUpstreamRequest, type UpstreamRequest } from './send-upstream-request.js';
import { DEFAULT_UPSTREAM_BODY_LIMITS } from './upstream-body-limits.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/fail') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
    if (req.url === '/huge-error')
      return res.writeHead(503, { 'content-type': 'text/plain' }).end('e'.repeat(DEFAULT_UPSTREAM_BODY_LIMITS.maxErrorBytes * 4));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = (path: string, signal: AbortSignal, timeoutMs = 10_000): UpstreamRequest => ({
  url: `${origin}${path}`,
  headers: {},
  body: { hello: 'world' },
  timeoutMs,
  context: { signal },
  parseProviderError: (body) => ({ message: JSON.stringify(body) }),
});

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('sendUpstreamRequest', () => {
  it('stops listening to the caller’s signal once the answer has been read', async () => {
    const caller = new AbortController();
    const response = await sendUpstreamRequest(call('/ok', caller.signal));
    expect(listeners(caller.signal)).toBe(1);
    expect(await response.body.json()).toEqual({ ok: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(listeners(caller.signal)).toBe(0);
  });

  it('stops listening after an error status', async () => {
    const caller = new AbortController();
    const error = await failure(sendUpstreamRequest(call('/fail', caller.signal)));
    expect(error.failure).toBe('status');
    expect(error.details.status).toBe(500);
    expect(listeners(caller.signal)).toBe(0);
  });

  it('is aborted by the caller’s signal', async () => {
    const caller = new AbortController();
    const pending = sendUpstreamRequest(call('/hang', caller.signal));
    setImmediate(() => caller.abort());
    const error = await failure(pending);
    expect(error.failure).toBe('aborted');
    expect(listeners(caller.signal)).toBe(0);
  });

  it('does not start when the caller’s signal has already fired', async () => {
    const caller = new AbortController();
    caller.abort();
    expect((await failure(sendUpstreamRequest(call('/ok', caller.signal)))).failure).toBe('aborted');
  });

  it('keeps an error body only up to the error limit, and says so', async () => {
    const error = await failure(sendUpstreamRequest(call('/huge-error', new AbortController().signal)));
    const limit = DEFAULT_UPSTREAM_BODY_LIMITS.maxErrorBytes;
    expect(error).toMatchObject({ failure: 'status', details: { status: 503, body: 'e'.repeat(limit) } });
    expect(error.message).toBe(
      `upstream answered 503 with an error body larger than the gateway's ${limit}-byte limit (UPSTREAM_MAX_ERROR_BYTES), cut there`,
    );
  });

  it('lets a body that cannot be serialized fail as the gateway’s own error, not as a connection failure', async () => {
    const body: Record<string, unknown> = {};
    body.self = body;
    const caller = new AbortController();
    const error = await sendUpstreamRequest({ ...call('/ok', caller.signal), body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(listeners(caller.signal)).toBe(0);
  });

  it('gives up at its deadline as a timeout, not an abort', async () => {
    const caller = new AbortController();
    const error = await failure(sendUpstreamRequest(call('/hang', caller.signal, 20)));
    expect(error.failure).toBe('timeout');
    expect(listeners(caller.signal)).toBe(0);
  });
});

import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorEnvelope } from './error-envelope.js';

/** A server whose one route fails after `failAfterMs`, logging into `lines`. */
async function failingServer(failAfterMs: number) {
  const lines: { level: number; msg: string; code?: string }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'info' }, sink) as FastifyBaseLogger, forceCloseConnections: true });
  installErrorEnvelope(app, 1024);
  let failed: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (failed = resolve));
  let received: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (received = resolve));
  app.get('/fails', async () => {
    received();
    await new Promise((resolve) => setTimeout(resolve, failAfterMs));
    setImmediate(failed);
    throw new Error('upstream broke');
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, lines, settled, arrived };
}

describe('the error handler', () => {
  let close: () => Promise<void> = async () => undefined;
  afterEach(() => close());

  it('logs a failure as an error when the client is still there to be told', async () => {
    const server = await failingServer(0);
    close = () => server.app.close();
    const res = await fetch(`${server.url}/fails`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { code: 500 } });
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_INTERNAL');
    await server.settled;
    expect(server.lines.filter((l) => l.msg === 'request failed').map((l) => [l.level, l.code])).toEqual([[50, 'GW_ERR_INTERNAL']]);
  });

  it('logs a failure of a request whose client has gone at info level, not as an error', async () => {
    const server = await failingServer(200);
    close = () => server.app.close();
    // The client leaves once the server has the request, however slow the machine.
    const leave = new AbortController();
    const asked = fetch(`${server.url}/fails`, { signal: leave.signal });
    await server.arrived;
    leave.abort();
    await expect(asked).rejects.toThrow();
    await server.settled;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.lines.filter((l) => l.msg === 'request failed')).toEqual([]);
    expect(server.lines.filter((l) => l.msg === 'client closed the connection before the answer').map((l) => l.level)).toEqual([30]);
  });
});

import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { until } from '../support/until.js';
import { openSocket, portOf, type RawExchange, request, untilClosed } from './raw-http.js';

/**
 * Clients that send half their headers or half their body, or trickle it,
 * get 408 in the envelope and their connection closed once the headers or
 * the body time is up (short here through the settings; 30 s each by
 * default). The connection cap closes what comes past it at once.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;
const HEADERS_MS = 300;
const BODY_MS = 300;

const expect408 = (answer: RawExchange) => {
  expect(answer.status, answer.text).toBe(408);
  expect(answer.body).toEqual({
    error: {
      code: 408,
      message: `The request did not arrive in time: its headers must arrive within ${HEADERS_MS} ms of its first byte, and its body within ${BODY_MS} ms more`,
    },
  });
};

describe('slow clients', () => {
  let gw: RunningGateway;
  let port: number;

  beforeAll(async () => {
    gw = await startGateway(sqlite, { clientLimits: { headersTimeoutMs: HEADERS_MS, bodyTimeoutMs: BODY_MS } });
    port = portOf(gw.baseUrl);
  });
  afterAll(async () => {
    await gw.close();
  });

  /** Opens `count` connections, each sending `start` and then, when given, a byte every 50 ms. */
  async function slowClients(count: number, start: string, trickle = false): Promise<RawExchange[]> {
    const sockets: Socket[] = await Promise.all(Array.from({ length: count }, () => openSocket(port)));
    const answers = sockets.map((socket) => untilClosed(socket));
    const timers = sockets.map((socket) => {
      socket.write(start);
      return trickle ? setInterval(() => socket.writable && socket.write('a'), 50) : undefined;
    });
    try {
      return await Promise.all(answers);
    } finally {
      timers.forEach((timer) => {
        clearInterval(timer);
      });
    }
  }

  it('answers 30 connections that send half their headers with 408 and closes them', async () => {
    const answers = await slowClients(30, `POST /api/v1/keys HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${gw.managementKey}\r\n`);
    answers.forEach(expect408);
  });

  it('answers 30 connections that send half their body with 408 and closes them', async () => {
    const head = `POST /api/v1/keys HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${gw.managementKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const answers = await slowClients(30, `${head}{"name":"half`);
    answers.forEach(expect408);
  });

  it('answers a body that keeps trickling in past its time with 408', async () => {
    const head = `POST /api/v1/keys HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${gw.managementKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
    const answers = await slowClients(3, `${head}{"name":"`, true);
    answers.forEach(expect408);
  });

  it('still answers a client that sends its request in time', async () => {
    const res = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'in time' } });
    expect(res.status).toBe(201);
  });
});

describe('the connection cap', () => {
  let gw: RunningGateway;
  let port: number;

  beforeAll(async () => {
    gw = await startGateway(sqlite, { clientLimits: { maxConnections: 4 } });
    port = portOf(gw.baseUrl);
  });
  afterAll(async () => {
    await gw.close();
  });

  const openConnections = () =>
    new Promise<number>((resolve, reject) => gw.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

  it('closes connections past the cap at once, and serves again once there is room', async () => {
    const models = `GET /api/v1/models HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${gw.managementKey}\r\n\r\n`;
    // Three clients hold connections with half-sent headers (the 30 s default leaves them open).
    const holders = await Promise.all([1, 2, 3].map(() => openSocket(port)));
    holders.forEach((socket) => {
      socket.write('GET /api/v1/models HTTP/1.1\r\n');
    });
    const held = holders.map((socket) => untilClosed(socket));
    // The fourth connection is still served...
    expect((await request(port, models)).status).toBe(200);
    expect(await until(openConnections, (open) => open === 3)).toBe(3);
    // ...but with four open, the fifth and later are closed without an answer.
    const fourth = await openSocket(port);
    fourth.write('GET /api/v1/models HTTP/1.1\r\n');
    expect(await until(openConnections, (open) => open === 4)).toBe(4);
    const refused = await Promise.all([1, 2, 3, 4, 5].map(() => request(port, models)));
    for (const answer of refused) expect(answer.status, answer.text).toBeUndefined();
    // Room again: the next client is served.
    [...holders, fourth].forEach((socket) => {
      socket.destroy();
    });
    await Promise.all(held);
    const next = await until(
      () => request(port, models),
      (answer) => answer.status !== undefined,
    );
    expect(next.status).toBe(200);
  });
});

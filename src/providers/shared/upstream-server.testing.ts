import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface TestUpstream {
  /** e.g. "http://127.0.0.1:54321" */
  origin: string;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A local HTTP server on a free port standing in for a provider in adapter
 * I/O tests: it records each request (JSON body parsed) and hands it to the
 * test's handler to answer, stall or break.
 */
export async function startTestUpstream(
  handle: (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>,
): Promise<TestUpstream> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer(async (incoming, response) => {
    let text = '';
    for await (const piece of incoming) text += piece;
    const received = {
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      headers: incoming.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(received);
    await handle(received, response);
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeLingering } from './lingering-close.js';

describe('closeLingering', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  /** A server that answers, then closes as the HTTP server does after a `Connection: close` answer; and a client of it. */
  async function answered(
    maxBytes: number,
    allowHalfOpen = false,
  ): Promise<{ client: Socket; received: () => string; server: Promise<Socket> }> {
    let accepted: (socket: Socket) => void = () => {};
    const server = createServer((socket) => {
      closeLingering(socket, { ms: 60_000, maxBytes });
      socket.write('answer');
      socket.destroySoon();
      accepted(socket);
    });
    servers.push(server);
    await once(server.listen(0, '127.0.0.1'), 'listening');
    const serverSocket = new Promise<Socket>((resolve) => {
      accepted = resolve;
    });
    const client = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen });
    client.on('error', () => {});
    let text = '';
    client.on('data', (bytes: Buffer) => {
      text += bytes.toString();
    });
    return { client, received: () => text, server: serverSocket };
  }

  it('sends the answer and a FIN, and closes cleanly once the client stops', async () => {
    const { client, received, server } = await answered(1_000);
    await once(client, 'end');
    expect(received()).toBe('answer');
    const closed = once(await server, 'close');
    client.end('a last piece of the body');
    const [hadError] = await closed;
    expect(hadError).toBe(false);
  });

  it('cuts a client that keeps sending once it has sent more than the bound', async () => {
    // Half-open: the client never ends its side, so only the bound can close the connection (the timer is a minute away).
    const { client, received, server } = await answered(1_000, true);
    await once(client, 'end');
    const closed = once(await server, 'close');
    client.write(Buffer.alloc(2_000));
    await closed;
    expect((await server).destroyed).toBe(true);
    expect(received()).toBe('answer');
  });
});

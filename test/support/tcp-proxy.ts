import { type AddressInfo, createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the gateway and a shared service (PostgreSQL, Redis),
 * so that a test can take the service away from the gateway without
 * touching the machine's service, which other tests use.
 */
export interface TcpProxy {
  /** host:port to give the gateway instead of the service's. */
  readonly address: string;
  /** Connections made through the proxy so far. */
  readonly connections: number;
  /** As a restart or a failover: every connection is reset, and new ones are refused. */
  cut(): Promise<void>;
  /**
   * As a network cut no socket error reports: connections stay open (new
   * ones are accepted), but nothing passes either way; what is sent waits,
   * as TCP retransmits it, until restore().
   */
  blackhole(): void;
  /** The service is reachable again (held bytes pass on). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
  /** Bytes held while blackholed, per direction. */
  toUpstream: Buffer[];
  toClient: Buffer[];
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let held = false;
  let connections = 0;

  const connectUpstream = (pair: Pair) => {
    const upstream = createConnection(target);
    pair.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => (held ? pair.toClient.push(chunk) : pair.client.write(chunk)));
    upstream.on('error', () => pair.client.destroy());
    upstream.on('close', () => pair.client.destroy());
    for (const chunk of pair.toUpstream.splice(0)) upstream.write(chunk);
  };

  const onConnection = (client: Socket) => {
    connections++;
    const pair: Pair = { client, upstream: undefined, toUpstream: [], toClient: [] };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => (held || !pair.upstream ? pair.toUpstream.push(chunk) : pair.upstream.write(chunk)));
    client.on('error', () => pair.upstream?.destroy());
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (!held) connectUpstream(pair);
  };

  let server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(onConnection);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

  const proxy: TcpProxy = {
    address: `127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    async cut() {
      const closed = stopListening();
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await closed;
    },
    blackhole() {
      held = true;
    },
    async restore() {
      if (held) {
        held = false;
        for (const pair of pairs) {
          if (!pair.upstream) connectUpstream(pair);
          else for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk);
          for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
        }
      }
      if (!server.listening) await listen();
    },
    close: () => proxy.cut(),
  };
  return proxy;
}

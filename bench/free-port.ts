import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';

/** A port free right now on 127.0.0.1 (the servers are told their port, so the harness knows it without parsing logs). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

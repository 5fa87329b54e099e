import type { Socket } from 'node:net';

/** How long, and how many more bytes, a refused upload's connection is read after its answer before it is cut. */
export const LINGER = { ms: 2_000, maxBytes: 4 * 1024 * 1024 } as const;

/**
 * Closes the connection of a request whose body is left unread without
 * losing its answer. Destroying a socket with unread bytes sends a reset,
 * and a client still writing its body may then never read the answer; so,
 * once the answer (sent with `Connection: close`) is written, the socket
 * sends its FIN, and what the client still sends is read and dropped until
 * it stops, `maxBytes` more have come or `ms` have passed, as servers'
 * "lingering close" does. Only then is the socket destroyed: a client
 * sending gigabytes is cut after a few megabytes.
 */
export function closeLingering(socket: Socket, { ms, maxBytes }: { ms: number; maxBytes: number } = LINGER): void {
  // Node's HTTP server calls destroySoon once the answer of a `Connection: close` response is written.
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    let dropped = 0;
    const timer = setTimeout(() => this.destroy(), ms).unref();
    this.once('close', () => clearTimeout(timer));
    this.on('data', (bytes: Buffer) => {
      dropped += bytes.length;
      if (dropped > maxBytes) this.destroy();
    });
    this.resume();
  };
}

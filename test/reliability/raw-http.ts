import { connect, type Socket } from 'node:net';

/** What came back on a raw connection once the server closed it. */
export interface RawExchange {
  /** Everything the server wrote. */
  text: string;
  /** The status of the first response, when there was one. */
  status?: number;
  /** Its body, parsed when it is JSON. */
  body?: unknown;
  /** The socket's error (ECONNRESET, …), when it closed on one. */
  error?: string;
}

/** The port of a gateway's base URL (http://127.0.0.1:PORT/api/v1). */
export const portOf = (baseUrl: string) => Number(new URL(baseUrl).port);

/** A connection to the gateway, open once connected. */
export async function openSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Resolves with what the server wrote once it closes the connection. */
export function untilClosed(socket: Socket): Promise<RawExchange> {
  let text = '';
  let error: string | undefined;
  socket.setEncoding('utf8');
  socket.on('data', (piece: string) => (text += piece));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  return new Promise((resolve) => socket.once('close', () => resolve({ ...parseResponse(text), ...(error ? { error } : {}), text })));
}

/** Sends `bytes` on a fresh connection and waits for the server to close it. */
export async function exchange(port: number, bytes: string): Promise<RawExchange> {
  const socket = await openSocket(port);
  const closed = untilClosed(socket);
  socket.write(bytes);
  return closed;
}

/** Sends one request on a fresh connection and reads its one response (or how the connection ended), then closes. */
export async function request(port: number, bytes: string): Promise<RawExchange> {
  const socket = await openSocket(port);
  let text = '';
  let error: string | undefined;
  socket.setEncoding('utf8');
  return new Promise((resolve) => {
    socket.on('data', (piece: string) => {
      text += piece;
      const parsed = parseResponse(text);
      if (parsed.complete) {
        socket.destroy();
        resolve({ ...parsed, text });
      }
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.once('close', () => resolve({ ...parseResponse(text), ...(error ? { error } : {}), text }));
    socket.write(bytes);
  });
}

function parseResponse(text: string): { status?: number; body?: unknown; complete?: boolean } {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return {};
  const head = text.slice(0, headEnd);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? NaN);
  const rest = Buffer.from(text.slice(headEnd + 4));
  const complete = Number.isInteger(length) && rest.length >= length;
  // Only the first response: a connection may carry more (a body sent past its Content-Length is a second request).
  const raw = complete ? rest.subarray(0, length).toString() : rest.toString();
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // Not JSON (or not whole yet): the test sees the text.
  }
  return { status, body, complete };
}

import { once } from 'node:events';
import { connect } from 'node:net';

/** One part of a multipart form: a text field, or a file of `size` bytes (`head` first, then zeros). */
export type FormPart = { name: string; value: string } | { name: string; filename: string; size: number; head?: Buffer };

const ZEROS = Buffer.alloc(64 * 1024);

/**
 * A multipart body (boundary `b`) as a sequence of buffers, the files' bytes
 * in 64 KiB pieces of one shared buffer: a 100 MB form costs the test no memory.
 */
export function* formPieces(parts: readonly FormPart[]): Generator<Buffer> {
  for (const part of parts) {
    if ('value' in part) {
      yield Buffer.from(`--b\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
      continue;
    }
    yield Buffer.from(`--b\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n\r\n`);
    const head = part.head ?? Buffer.alloc(0);
    yield head;
    for (let left = part.size - head.length; left > 0; left -= ZEROS.length) yield ZEROS.subarray(0, Math.min(left, ZEROS.length));
    yield Buffer.from('\r\n');
  }
  yield Buffer.from('--b--\r\n');
}

/** What a raw upload read: the answer as it came, and how many bytes of body the socket took before the gateway answered or closed. */
export interface RawUpload {
  answer: string;
  sent: number;
}

/**
 * POSTs a multipart body over a raw socket, with its Content-Length or
 * chunked, written until the gateway answers or closes: what a client that
 * keeps writing sees, and how much of the body the gateway let in.
 */
export async function rawUpload(url: string, key: string, body: () => Iterable<Buffer>, chunked: boolean): Promise<RawUpload> {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {}); // a broken pipe once the gateway closes is expected
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (data: Buffer) => {
    answer += data.toString('latin1');
  });
  let declared = 0;
  if (!chunked) for (const piece of body()) declared += piece.length;
  const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`;
  socket.write(
    `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nConnection: close\r\n${length}\r\n\r\n`,
  );
  let sent = 0;
  for (const piece of body()) {
    if (answer !== '' || socket.destroyed) break;
    if (piece.length === 0) continue;
    sent += piece.length;
    const framed = chunked ? [Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')] : [piece];
    let flushed = true;
    for (const bytes of framed) flushed = socket.write(bytes) && flushed;
    if (!flushed) await Promise.race([once(socket, 'drain').catch(() => undefined), closed]);
  }
  if (chunked && answer === '' && !socket.destroyed) socket.write('0\r\n\r\n');
  await closed;
  return { answer, sent };
}

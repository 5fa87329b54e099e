import type { Dispatcher } from 'undici';

/**
 * A body read up to maxBytes: past them the rest is left unread and the body
 * destroyed (which closes its socket), so that what a remote server sends
 * never holds more than maxBytes of the gateway's memory.
 */
export async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      body.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

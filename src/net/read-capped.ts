import type { Dispatcher } from 'undici';

type Body = Dispatcher.ResponseData['body'];

/**
 * A body read up to maxBytes: past them the rest is left unread and the body
 * destroyed (which closes its socket), so that what a remote server sends
 * never holds more than maxBytes of the gateway's memory. Read through the
 * stream's events rather than `for await`: its async iterator and the
 * end-of-stream watcher behind it cost a chat answer more than the reading.
 */
export function readCapped(body: Body, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    if (body.destroyed) return reject(body.errored ?? prematureClose());
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length <= maxBytes) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, maxBytes - size));
      stop();
      // undici's body reports its own destruction as an abort error: expected here, so heard and dropped.
      body.on('error', () => undefined);
      body.destroy();
      resolve({ body: Buffer.concat(chunks), truncated: true });
    };
    const onEnd = () => {
      stop();
      resolve({ body: Buffer.concat(chunks, size), truncated: false });
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // Closed with neither its end nor an error: cut short, as the stream's own iterator would say.
    const onClose = () => onError(prematureClose());
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

const prematureClose = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

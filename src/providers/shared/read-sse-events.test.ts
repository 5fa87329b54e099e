import { describe, expect, it } from 'vitest';
import { readSseEvents } from './read-sse-events.js';

async function* bytes(...pieces: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield typeof piece === 'string' ? new TextEncoder().encode(piece) : piece;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('readSseEvents', () => {
  it('parses data-only events split across chunks', async () => {
    const events = await collect(readSseEvents(bytes('data: {"a"', ':1}\n\nda', 'ta: [DONE]\n\n')));
    expect(events.map((event) => event.data)).toEqual(['{"a":1}', '[DONE]']);
  });

  it('keeps named events, skips comments and joins multi-line data', async () => {
    const events = await collect(
      readSseEvents(bytes(': keep-alive\n\nevent: message_start\ndata: {"x":1}\n\ndata: line1\ndata: line2\n\n')),
    );
    expect(events).toEqual([
      { event: 'message_start', data: '{"x":1}', id: undefined },
      { event: undefined, data: 'line1\nline2', id: undefined },
    ]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const encoded = new TextEncoder().encode('data: "é"\n\n');
    const events = await collect(readSseEvents(bytes(encoded.slice(0, 8), encoded.slice(8))));
    expect(events.map((event) => event.data)).toEqual(['"é"']);
  });

  it('handles CRLF line endings', async () => {
    const events = await collect(readSseEvents(bytes('data: 1\r\n\r\ndata: 2\r\n\r\n')));
    expect(events.map((event) => event.data)).toEqual(['1', '2']);
  });

  it('discards an event that the body ends before its blank line', async () => {
    const events = await collect(readSseEvents(bytes('data: 1\n\ndata: [DONE]')));
    expect(events.map((event) => event.data)).toEqual(['1']);
  });

  it('reads the body only as far as the consumer pulls', async () => {
    let pulled = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (const piece of ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']) {
        pulled++;
        yield new TextEncoder().encode(piece);
      }
    }
    const events = readSseEvents(counted());
    expect((await events.next()).value?.data).toBe('1');
    expect(pulled).toBe(1);
    await events.return(undefined);
    expect(pulled).toBe(1);
  });

  it('fails on an event larger than its limit instead of buffering it, however it is split', async () => {
    const endless = bytes('data: 1\n\n', `data: ${'x'.repeat(60)}`, 'x'.repeat(60));
    const events = readSseEvents(endless, 100);
    expect((await events.next()).value?.data).toBe('1');
    await expect(events.next()).rejects.toMatchObject({
      failure: 'malformed',
      message: "upstream sent a stream event larger than the gateway's 100-character limit (UPSTREAM_MAX_ANSWER_BYTES)",
    });
  });

  it('takes events up to the limit one after another', async () => {
    const events = await collect(readSseEvents(bytes(`data: ${'x'.repeat(80)}\n\n`, `data: ${'y'.repeat(80)}\n\n`), 100));
    expect(events.map((event) => event.data.length)).toEqual([80, 80]);
  });
});

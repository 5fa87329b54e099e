import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapped } from './read-capped.js';

type Body = Parameters<typeof readCapped>[0];
const bodyOf = (readable: Readable) => readable as unknown as Body;
const chunks = (...parts: string[]) => bodyOf(Readable.from(parts.map((p) => Buffer.from(p))));

describe('readCapped', () => {
  it('reads a body within the cap whole', async () => {
    expect(await readCapped(chunks('ab', 'cd', 'e'), 5)).toEqual({ body: Buffer.from('abcde'), truncated: false });
    expect(await readCapped(chunks(), 5)).toEqual({ body: Buffer.alloc(0), truncated: false });
  });

  it('keeps exactly the cap of a larger body and destroys the rest unread', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.from('xxxx'));
      },
    });
    const read = await readCapped(bodyOf(endless), 10);
    expect(read).toEqual({ body: Buffer.from('x'.repeat(10)), truncated: true });
    expect(endless.destroyed).toBe(true);
    expect(pulled).toBeLessThan(20);
  });

  it('rejects with the stream error, and on a close before the end', async () => {
    const failing = new Readable({ read() {} });
    const reading = readCapped(bodyOf(failing), 100);
    failing.push(Buffer.from('a'));
    failing.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toThrow('socket hang up');

    const cut = new Readable({ read() {} });
    const cutReading = readCapped(bodyOf(cut), 100);
    cut.destroy();
    await expect(cutReading).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('rejects a body destroyed before it was read instead of waiting for events that never come', async () => {
    const gone = new Readable({ read() {} });
    gone.destroy();
    await expect(readCapped(bodyOf(gone), 100)).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { speechEventsOfAudio } from './speech-events-of-audio.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

describe('speechEventsOfAudio', () => {
  it('gives a delta event per piece, each decoding to that piece, then a done event without usage', async () => {
    const whole = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    // Pieces that are views into one buffer, of lengths that are not multiples of 3 (base64's groups).
    const pieces = [whole.subarray(0, 1), whole.subarray(1, 101), whole.subarray(101, 300)];
    const events = await collect(speechEventsOfAudio(Readable.from(pieces)));
    expect(events.map((e) => e.type)).toEqual(['speech.audio.delta', 'speech.audio.delta', 'speech.audio.delta', 'speech.audio.done']);
    expect(events.slice(0, -1).map((e) => Buffer.from(e.audio!, 'base64'))).toEqual(pieces);
    expect(events.at(-1)).toEqual({ type: 'speech.audio.done' });
  });

  it('gives only the done event for no audio', async () => {
    expect(await collect(speechEventsOfAudio(Readable.from([])))).toEqual([{ type: 'speech.audio.done' }]);
  });

  it('stops reading the audio when the events are stopped', async () => {
    const audio = Readable.from([Buffer.from('a'), Buffer.from('b')]);
    const events = speechEventsOfAudio(audio);
    await events.next();
    await events.return(undefined);
    expect(audio.destroyed).toBe(true);
  });

  it('fails as the audio fails', async () => {
    const audio = new Readable({ read() {} });
    audio.push(Buffer.from('a'));
    const events = speechEventsOfAudio(audio);
    await events.next();
    audio.destroy(new Error('other side closed'));
    await expect(events.next()).rejects.toThrow('other side closed');
  });
});

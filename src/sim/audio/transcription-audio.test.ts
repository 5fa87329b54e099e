import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE, wav } from './sim-audio.js';
import { audioDuration, simTranscript } from './transcription-audio.js';

describe('the simulator’s reading of audio', () => {
  it('reads a WAV’s duration from its header, and takes other files at 128 kbit/s', () => {
    expect(audioDuration(wav(Buffer.alloc(SAMPLE_RATE)))).toBe(0.5);
    expect(audioDuration(Buffer.alloc(32_000))).toBe(2);
  });

  it('never throws on bytes that are not a WAV, and gives a duration ≥ 0', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, riff) => {
        const file = Buffer.from(bytes);
        if (riff && file.length >= 12) file.write('RIFF', 0, 'latin1') && file.write('WAVE', 8, 'latin1');
        expect(audioDuration(file)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('transcribes the same audio the same way, a segment per ten seconds', () => {
    const transcript = simTranscript(25);
    expect(transcript.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 10],
      [10, 20],
      [20, 25],
    ]);
    expect(transcript.text).toBe('Simulated speech, part 1 of 3. Simulated speech, part 2 of 3. Simulated speech, part 3 of 3.');
    expect(simTranscript(25)).toEqual(transcript);
  });
});

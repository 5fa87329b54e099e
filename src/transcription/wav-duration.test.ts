import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE, tonePcm, wav } from '../sim/audio/sim-audio.js';
import { wavDuration } from './wav-duration.js';

describe('wavDuration', () => {
  it('reads a WAV’s duration from its header', () => {
    expect(wavDuration(wav(tonePcm(50)))).toBe(1);
    expect(wavDuration(wav(Buffer.alloc(SAMPLE_RATE)))).toBe(0.5);
  });

  it('counts only the samples sent when the data chunk overstates a cut file', () => {
    const file = wav(Buffer.alloc(SAMPLE_RATE * 2));
    expect(wavDuration(file.subarray(0, file.length - SAMPLE_RATE))).toBe(0.5);
  });

  it('is undefined for bytes that are not a WAV, and never throws', () => {
    expect(wavDuration(Buffer.from('ID3 not a wave'))).toBeUndefined();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, riff) => {
        const file = Buffer.from(bytes);
        if (riff && file.length >= 12) file.write('RIFF', 0, 'latin1') && file.write('WAVE', 8, 'latin1');
        const seconds = wavDuration(file);
        expect(seconds === undefined || seconds >= 0).toBe(true);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE, silentMp3, tonePcm, wav } from './sim-audio.js';

describe('the simulator’s audio', () => {
  it('lasts 20 ms a character at speed 1, half that at speed 2, as 16-bit samples', () => {
    expect(tonePcm(10).length).toBe(0.2 * SAMPLE_RATE * 2);
    expect(tonePcm(10, 2).length).toBe(0.1 * SAMPLE_RATE * 2);
  });

  it('wraps PCM in a WAV header that states its format and length', () => {
    const file = wav(tonePcm(1));
    expect(file.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(file.subarray(8, 12).toString('latin1')).toBe('WAVE');
    expect(file.readUInt32LE(24)).toBe(SAMPLE_RATE);
    expect(file.readUInt32LE(40)).toBe(file.length - 44);
  });

  it('makes whole MPEG-1 Layer III frames at 48 kHz, as many as the 24 kHz samples take, two at least', () => {
    const mp3 = silentMp3(2_000);
    expect(mp3.length).toBe(4 * 384);
    expect(silentMp3(100).length).toBe(2 * 384);
    expect([...mp3.subarray(0, 2)]).toEqual([0xff, 0xfb]);
  });
});

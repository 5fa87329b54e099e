import { describe, expect, it } from 'vitest';
import { flac, flacFrameNumber } from './flac.js';
import { SAMPLE_RATE, tonePcm } from './sim-audio.js';

describe('flacFrameNumber', () => {
  it.each([
    [0, [0x00]],
    [0x7f, [0x7f]],
    [0x80, [0xc2, 0x80]],
    [0x7ff, [0xdf, 0xbf]],
    [0x800, [0xe0, 0xa0, 0x80]],
    [0xd800, [0xed, 0xa0, 0x80]],
  ])('codes %i as UTF-8 would, surrogates included', (n, bytes) => {
    expect([...flacFrameNumber(n)]).toEqual(bytes);
  });
});

describe('flac', () => {
  it('starts with fLaC and a last STREAMINFO block stating the rate, channels, bits and samples', () => {
    const pcm = tonePcm(500);
    const file = flac(pcm);
    expect(file.subarray(0, 4).toString('latin1')).toBe('fLaC');
    expect([...file.subarray(4, 8)]).toEqual([0x80, 0, 0, 34]);
    expect(file.readUInt16BE(8)).toBe(4096);
    expect(file.readUInt32BE(18) >>> 12).toBe(SAMPLE_RATE);
    expect((file.readUInt32BE(18) >>> 4) & 0x1f).toBe(15);
    expect(file.readUInt32BE(22)).toBe(pcm.length / 2);
    // The first frame: sync and fixed blocking, then frame number 0 after the two coding bytes.
    expect([...file.subarray(42, 46)]).toEqual([0xff, 0xf8, 0x77, 0x08]);
    expect(file[46]).toBe(0);
  });

  it('holds every sample verbatim: 2 bytes each, plus a header and CRC per 4,096', () => {
    const pcm = tonePcm(500);
    const frames = Math.ceil(pcm.length / 2 / 4096);
    // Header 4 + frame number (1 byte below 128) + block size 2 + CRC-8 1, the subframe's 1, CRC-16 2.
    expect(flac(pcm).length).toBe(42 + pcm.length + frames * 11);
  });
});

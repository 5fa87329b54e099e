import { describe, expect, it } from 'vitest';
import { crcMsbFirst } from './crc.js';

describe('crcMsbFirst', () => {
  const check = Buffer.from('123456789', 'latin1');

  it("gives the catalogued check values of FLAC's CRC-8 and CRC-16 and Ogg's CRC-32", () => {
    expect(crcMsbFirst(8, 0x07, check)).toBe(0xf4);
    expect(crcMsbFirst(16, 0x8005, check)).toBe(0xfee8);
    expect(crcMsbFirst(32, 0x04c11db7, check)).toBe(0x89a1897f);
  });

  it('is 0 for no bytes', () => {
    expect(crcMsbFirst(32, 0x04c11db7, Buffer.alloc(0))).toBe(0);
  });
});

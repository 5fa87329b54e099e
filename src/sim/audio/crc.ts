/**
 * A CRC as the audio containers define theirs (pure): most significant bit
 * first, no reflection, the given initial value, no final XOR. FLAC's
 * header CRC-8 (x^8+x^2+x+1, 0x07) and frame CRC-16 (0x8005), and Ogg's page
 * CRC-32 (0x04c11db7), which zlib's reflected CRC-32 is not.
 */
export function crcMsbFirst(width: 8 | 16 | 32, poly: number, data: Uint8Array): number {
  const top = 2 ** (width - 1);
  const mask = 2 ** width - 1;
  let crc = 0;
  for (const byte of data) {
    crc = (crc ^ (byte * 2 ** (width - 8))) >>> 0;
    for (let bit = 0; bit < 8; bit++) crc = (crc >= top ? ((crc * 2) & mask) ^ poly : (crc * 2) & mask) >>> 0;
  }
  return crc;
}

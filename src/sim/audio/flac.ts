import { crcMsbFirst } from './crc.js';
import { SAMPLE_RATE } from './sim-audio.js';

/** Samples per FLAC frame (a common encoder block size); the last frame holds what is left. */
const BLOCK = 4_096;

/**
 * FLAC's "UTF-8" coding of a frame number (pure): UTF-8's byte pattern,
 * stretched past Unicode's range and with no surrogate gap.
 */
export function flacFrameNumber(n: number): Buffer {
  if (n < 0x80) return Buffer.of(n);
  // k continuation bytes of 6 bits each, and the lead byte's 6 - k, hold 5k + 6 bits.
  let k = 1;
  while (n >= 2 ** (5 * k + 6)) k++;
  const bytes: number[] = [];
  let rest = n;
  for (let i = 0; i < k; i++) {
    bytes.unshift(0x80 | (rest % 64));
    rest = Math.floor(rest / 64);
  }
  return Buffer.of(((0xff << (7 - k)) & 0xff) | rest, ...bytes);
}

/** STREAMINFO (34 bytes): block sizes, frame sizes unknown (0), 24 kHz, mono, 16 bits, the sample count, MD5 unset (0). */
function streamInfo(samples: number, block: number): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(block, 0);
  info.writeUInt16BE(block, 2);
  // 20 bits of rate, 3 of channels - 1 (0), 5 of bits per sample - 1 (15), then the top 4 of 36 bits of samples.
  info.writeUInt32BE(((SAMPLE_RATE << 12) | (0 << 9) | (15 << 4) | Math.floor(samples / 2 ** 32)) >>> 0, 10);
  info.writeUInt32BE(samples >>> 0, 14);
  return info;
}

/** One frame: its header (fixed blocking, 16-bit block size at its end, 24 kHz, mono, 16 bits), one VERBATIM subframe, CRC-16. */
function frame(pcm: Buffer, number: number): Buffer {
  const samples = pcm.length / 2;
  const head = Buffer.concat([Buffer.of(0xff, 0xf8, 0x77, 0x08), flacFrameNumber(number), Buffer.alloc(2)]);
  head.writeUInt16BE(samples - 1, head.length - 2);
  const body = Buffer.alloc(1 + pcm.length);
  body[0] = 0x02; // zero bit, subframe type 000001 (VERBATIM), no wasted bits
  for (let i = 0; i < samples; i++) body.writeInt16BE(pcm.readInt16LE(i * 2), 1 + i * 2);
  const framed = Buffer.concat([head, Buffer.of(crcMsbFirst(8, 0x07, head)), body, Buffer.alloc(2)]);
  framed.writeUInt16BE(crcMsbFirst(16, 0x8005, framed.subarray(0, -2)), framed.length - 2);
  return framed;
}

/**
 * 16-bit little-endian mono PCM at 24 kHz as a FLAC file (pure): `fLaC`, the
 * last (and only) metadata block STREAMINFO, then frames of 4,096 samples
 * whose one subframe is VERBATIM: the samples as they are, which every FLAC
 * decoder reads (FLAC's format specification, RFC 9639), uncompressed.
 */
export function flac(pcm: Buffer): Buffer {
  const samples = pcm.length / 2;
  const block = Math.min(BLOCK, samples);
  const frames: Buffer[] = [];
  for (let offset = 0, n = 0; offset < pcm.length; offset += BLOCK * 2, n++)
    frames.push(frame(pcm.subarray(offset, offset + BLOCK * 2), n));
  // Metadata block header: last-block flag and type 0 (STREAMINFO), then its length, 34.
  return Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.of(0x80, 0, 0, 34), streamInfo(samples, block), ...frames]);
}

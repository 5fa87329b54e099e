import { SAMPLE_RATE } from './sim-audio.js';

/** Samples per AAC frame. */
const FRAME_SAMPLES = 1_024;
/** MPEG-4's sampling frequency indexes (ISO/IEC 14496-3 1.6.3.4), of the rates the simulator uses. */
const RATE_INDEX: Readonly<Record<number, number>> = { 48000: 3, 44100: 4, 32000: 5, 24000: 6 };

/**
 * A silent AAC-LC raw data block of one channel: a single channel element
 * (tag 0) whose long window has no scale factor bands (max_sfb 0), so no
 * spectral data, no pulse, TNS or gain control data, then the END element.
 */
const SILENT_BLOCK = Buffer.of(0x01, 0x40, 0x20, 0x07);

/** The 7-byte ADTS header (no CRC) of an AAC-LC mono frame of `length` bytes, the header included; buffer fullness 0x7FF (VBR). */
function adtsHeader(length: number): Buffer {
  const profile = 1; // the audio object type less one: AAC LC
  const channels = 1; // channel configuration: mono
  return Buffer.of(
    0xff,
    0xf1, // sync, MPEG-4, layer 0, no CRC
    (profile << 6) | (RATE_INDEX[SAMPLE_RATE]! << 2) | (channels >> 2), // private bit 0, the configuration's top bit
    ((channels & 3) << 6) | (length >> 11), // original, home and copyright bits 0, the length's top 2 bits
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc, // the buffer fullness's last 6 bits, one raw data block
  );
}

/**
 * Silent AAC in ADTS frames, as long as `pcmSamples` at 24 kHz (pure), as
 * OpenAI's `aac` format is: one 1,024-sample AAC-LC frame per header.
 */
export function silentAdtsAac(pcmSamples: number): Buffer {
  const frames = Math.max(1, Math.ceil(pcmSamples / FRAME_SAMPLES));
  const frame = Buffer.concat([adtsHeader(7 + SILENT_BLOCK.length), SILENT_BLOCK]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

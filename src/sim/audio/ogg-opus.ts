import { crcMsbFirst } from './crc.js';
import { SAMPLE_RATE } from './sim-audio.js';

/** A silent 20 ms Opus packet: TOC 0xF8 (CELT-only, fullband, 20 ms, mono, one frame) and a frame that decodes to silence. */
const SILENT_PACKET = Buffer.of(0xf8, 0xff, 0xfe);
/** Opus counts its granule positions at 48 kHz; a 20 ms packet is 960 of them. */
const PACKET_SAMPLES = 960;
/** The decoder's start-up samples to drop (RFC 7845 suggests at least 3,840 for a seek; 312 is libopus's encoder delay). */
const PRE_SKIP = 312;
/** Packets per page: one second of audio. */
const PER_PAGE = 50;
const SERIAL = 0x53494d31; // "SIM1"

/** One Ogg page (RFC 3533): header, the segment table of its packets (each under 255 bytes), the packets, and its CRC-32. */
function page(packets: Buffer[], flags: number, granule: bigint, sequence: number): Buffer {
  const lacing = packets.flatMap((p) => [...Array.from({ length: Math.floor(p.length / 255) }, () => 255), p.length % 255]);
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(SERIAL, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  header.set(lacing, 27);
  const whole = Buffer.concat([header, ...packets]);
  whole.writeUInt32LE(crcMsbFirst(32, 0x04c11db7, whole), 22);
  return whole;
}

/** OpusHead (RFC 7845 5.1): version 1, mono, the pre-skip, the input's rate (24 kHz), no gain, mapping family 0. */
function opusHead(): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(SAMPLE_RATE, 12);
  return head;
}

/** OpusTags (RFC 7845 5.2): the vendor string and no comments. */
function opusTags(): Buffer {
  const vendor = Buffer.from('model-gateway simulator', 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  return tags;
}

/**
 * Silent Ogg Opus as long as `pcmSamples` at 24 kHz (pure), as OpenAI's
 * `opus` format is: the identification and comment headers on pages of
 * their own, then pages of one second of silent 20 ms packets, the last one
 * ending the stream with a granule position that trims it to the length.
 */
export function silentOggOpus(pcmSamples: number): Buffer {
  const samples = Math.round((pcmSamples * 48_000) / SAMPLE_RATE);
  // Granule positions count the pre-skip too: the packets cover it and the audio.
  const packets = Math.ceil((PRE_SKIP + samples) / PACKET_SAMPLES);
  const pages = [page([opusHead()], 0x02, 0n, 0), page([opusTags()], 0, 0n, 1)];
  for (let first = 0; first < packets; first += PER_PAGE) {
    const count = Math.min(PER_PAGE, packets - first);
    const last = first + count === packets;
    const granule = BigInt(last ? PRE_SKIP + samples : (first + count) * PACKET_SAMPLES);
    pages.push(
      page(
        Array.from({ length: count }, () => SILENT_PACKET),
        last ? 0x04 : 0,
        granule,
        pages.length,
      ),
    );
  }
  return Buffer.concat(pages);
}

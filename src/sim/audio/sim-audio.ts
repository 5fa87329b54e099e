/** The sample rate of OpenAI's `pcm` (and of the simulator's every format): 24 kHz, 16-bit little-endian, mono. */
export const SAMPLE_RATE = 24_000;
/** Audio the simulator makes per character spoken, at speed 1. */
const MS_PER_CHARACTER = 20;

/** A 440 Hz tone as 16-bit little-endian PCM, as long as the text takes to say at this speed. */
export function tonePcm(characters: number, speed = 1): Buffer {
  const samples = Math.round(((characters * MS_PER_CHARACTER) / 1000 / speed) * SAMPLE_RATE);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE)), i * 2);
  return pcm;
}

/** The PCM in a WAV container (RIFF, PCM format 1, mono, 16 bits). */
export function wav(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * Silent MP3 as long as `pcmSamples` at 24 kHz, to a frame: MPEG-1 Layer
 * III frames at 128 kbit/s and 48 kHz (1,152 samples, 384 bytes each) whose
 * side information and data are all zero, which decoders play as silence.
 * Two frames at least: a demuxer finds an MP3 by a frame that a next one follows.
 */
export function silentMp3(pcmSamples: number): Buffer {
  const frames = Math.max(2, Math.ceil((pcmSamples * 48_000) / SAMPLE_RATE / 1152));
  const frame = Buffer.alloc(384);
  frame.set([0xff, 0xfb, 0x94, 0xc4]); // sync, MPEG-1 Layer III, no CRC; 128 kbit/s, 48 kHz, no padding; mono
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

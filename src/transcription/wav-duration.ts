/**
 * The duration of a WAV file from its header (byte rate and data chunk), or
 * undefined when the bytes are not one. The samples counted are those sent:
 * a data chunk whose size overstates a cut file counts only what is there.
 */
export function wavDuration(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  // Chunks follow the RIFF header: `fmt ` holds the byte rate, `data` the samples.
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= bytes.length) byteRate = bytes.readUInt32LE(offset + 16);
    if (id === 'data') return byteRate ? Math.min(size, bytes.length - offset - 8) / byteRate : undefined;
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

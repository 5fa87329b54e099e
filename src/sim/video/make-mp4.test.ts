import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { makeMp4 } from './make-mp4.js';

/** Top-level and nested boxes as [type, size] paths, read back from the bytes. */
function boxes(buf: Buffer, start = 0, end = buf.length, prefix = ''): string[] {
  const out: string[] = [];
  for (let at = start; at < end; ) {
    const size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    expect(size).toBeGreaterThanOrEqual(8);
    out.push(prefix + type);
    const skip = { stsd: 8, avc1: 78 }[type];
    if (['moov', 'trak', 'mdia', 'minf', 'stbl', 'dinf'].includes(type)) out.push(...boxes(buf, at + 8, at + size, `${prefix}${type}/`));
    if (skip !== undefined) out.push(...boxes(buf, at + 8 + skip, at + size, `${prefix}${type}/`));
    at += size;
  }
  return out;
}

it('the fixture is the generator output: ftyp, moov with one avc1 track, mdat whose samples the tables point at', () => {
  const mp4 = makeMp4();
  expect(readFileSync(new URL('./fixture.mp4', import.meta.url))).toEqual(mp4);
  const tree = boxes(mp4);
  expect(tree.filter((t) => !t.includes('/'))).toEqual(['ftyp', 'moov', 'mdat']);
  expect(tree).toContain('moov/trak/mdia/minf/stbl/stsd/avc1/avcC');
  // stco points at the first sample: a 4-byte length then an IDR NAL header (0x65).
  const stco = mp4.indexOf('stco', 0, 'latin1');
  const offset = mp4.readUInt32BE(stco + 12);
  expect(mp4.toString('latin1', offset - 4, offset)).toBe('mdat');
  expect(mp4[offset + 4]).toBe(0x65);
});

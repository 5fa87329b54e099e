import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of `side`×`side` pixels of one RGB colour: what the simulated image models render. */
export function solidPng([red, green, blue]: readonly [number, number, number], side = 8): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a sample, RGB, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: side }, () => [red, green, blue]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: side }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The colour of a prompt's image, and of its i-th variation: the same prompt always makes the same images. */
export function promptColour(prompt: string, index: number): [number, number, number] {
  let hash = 0x811c9dc5;
  for (const char of `${prompt}#${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return [(hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff];
}

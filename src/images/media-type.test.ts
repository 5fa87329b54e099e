import { describe, expect, it } from 'vitest';
import { mediaTypeOf } from './media-type.js';

const b64 = (bytes: number[] | string) =>
  Buffer.from(typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes)).toString('base64');

describe('mediaTypeOf', () => {
  it.each([
    ['a PNG', b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'image/png'],
    ['a JPEG', b64([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    ['a WebP', b64('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), 'image/webp'],
    ['an SVG', b64('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['text', b64('hello world'), undefined],
    ['nothing', '', undefined],
  ])('reads %s', (_, data, type) => {
    expect(mediaTypeOf(data)).toBe(type);
  });
});

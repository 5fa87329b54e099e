import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkVectors, embeddingItems, encodeBase64 } from './embedding-items.js';

const decode = (text: string) => {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
};

describe('encodeBase64', () => {
  it('writes OpenAI’s encoding: float32 little-endian, in base64', () => {
    expect(encodeBase64([1, -2])).toBe(Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]).toString('base64'));
  });

  it('decodes to the float32 nearest each value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }), { minLength: 1, maxLength: 64 }),
        (vector) => {
          expect(decode(encodeBase64(vector))).toEqual(vector.map((x) => Math.fround(x)));
        },
      ),
    );
  });
});

describe('embeddingItems', () => {
  it('numbers the vectors in input order, as floats or base64', () => {
    expect(embeddingItems([[0.5], [0.25]], 'float')).toEqual([
      { object: 'embedding', index: 0, embedding: [0.5] },
      { object: 'embedding', index: 1, embedding: [0.25] },
    ]);
    expect(embeddingItems([[0.5]], 'base64')).toEqual([{ object: 'embedding', index: 0, embedding: encodeBase64([0.5]) }]);
  });
});

describe('checkVectors', () => {
  it('takes vectors of one length, of the dimensions asked for', () => {
    expect(() =>
      checkVectors(
        [
          [1, 2],
          [3, 4],
        ],
        undefined,
      ),
    ).not.toThrow();
    expect(() => checkVectors([[1, 2]], 2)).not.toThrow();
  });

  it('calls vectors of mixed lengths, or of other dimensions than asked, malformed', () => {
    expect(() => checkVectors([[1, 2], [3]], undefined)).toThrow(
      expect.objectContaining({ failure: 'malformed', message: 'upstream answered embedding 1 with 1 dimensions, not the 2 of the first' }),
    );
    expect(() => checkVectors([[1, 2, 3]], 2)).toThrow(
      expect.objectContaining({
        failure: 'malformed',
        message: 'upstream answered embedding 0 with 3 dimensions, not the 2 dimensions asked for',
      }),
    );
  });
});

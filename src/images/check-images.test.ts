import { describe, expect, it } from 'vitest';
import { billedImageTokens, checkImages } from './complete-images.js';
import { MAX_INPUT_IMAGE_TOKENS } from './images-run.js';

const run = (n: number | undefined, response_format: 'b64_json' | 'url') => ({
  request: { model: 'm', prompt: 'p', response_format, ...(n !== undefined ? { n } : {}) },
});

describe('checkImages', () => {
  it('takes up to the images asked for, in the form asked for', () => {
    const answer = { images: [{ b64_json: 'a' }, { b64_json: 'b' }] };
    expect(checkImages(answer, run(2, 'b64_json'))).toBe(answer);
    expect(checkImages({ images: [{ url: 'u' }] }, run(3, 'url')).images).toHaveLength(1);
  });

  it('calls more images than asked, or an image without the form asked, malformed', () => {
    expect(() => checkImages({ images: [{ b64_json: 'a' }, { b64_json: 'b' }] }, run(undefined, 'b64_json'))).toThrow(
      expect.objectContaining({ failure: 'malformed', message: 'upstream answered 2 images, more than the 1 asked for' }),
    );
    expect(() => checkImages({ images: [{ b64_json: 'a' }] }, run(1, 'url'))).toThrow(
      expect.objectContaining({ failure: 'malformed', message: 'upstream answered an image without url' }),
    );
  });
});

describe('billedImageTokens', () => {
  const image = { bytes: Buffer.from('x'), filename: 'a.png', contentType: 'image/png' };
  const edit = { model: 'm', prompt: 'p', response_format: 'b64_json' as const, images: [image, image] };

  it('bills the input image tokens reported, up to what the images sent can count', () => {
    expect(billedImageTokens(510, edit)).toEqual({ imageTokens: 510, usageEstimated: false });
    expect(billedImageTokens(0, { ...edit, images: [] })).toEqual({ imageTokens: 0, usageEstimated: false });
    expect(() => billedImageTokens(2 * MAX_INPUT_IMAGE_TOKENS + 1, edit)).toThrow(
      expect.objectContaining({ failure: 'malformed', message: expect.stringContaining('more than the 14200') }),
    );
  });

  it('bills the bound, marked estimated, when none is reported for images sent (a mask counts as one)', () => {
    expect(billedImageTokens(undefined, { ...edit, mask: image })).toEqual({
      imageTokens: 3 * MAX_INPUT_IMAGE_TOKENS,
      usageEstimated: true,
    });
    expect(billedImageTokens(undefined, { model: 'm', prompt: 'p', response_format: 'b64_json' })).toEqual({
      imageTokens: 0,
      usageEstimated: false,
    });
  });
});

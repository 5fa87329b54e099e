import { describe, expect, it } from 'vitest';
import { checkImages } from './complete-images.js';

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

import { describe, expect, it } from 'vitest';
import { SafeFetchError, type SafeFetcher, type SafeFetchResult } from '../net/safe-fetch.js';
import { solidPng } from '../sim/images/sim-png.js';
import { INPUT_IMAGE_LIMITS, readInputReferences } from './read-input-references.js';

const png = solidPng([1, 2, 3]);
const reference = (url: string) => ({ type: 'image_url' as const, image_url: { url } });
/** A fetcher that answers every URL with `result`, or throws `error`. */
const fetcher = (result: Partial<SafeFetchResult> | Error): SafeFetcher => ({
  fetch: async (url) => {
    if (result instanceof Error) throw result;
    return { url, status: 200, headers: {}, body: png, truncated: false, redirects: [], ...result };
  },
  close: async () => undefined,
});
const read = (url: string, answer: Partial<SafeFetchResult> | Error = {}) =>
  readInputReferences([reference(url)], fetcher(answer), new AbortController().signal);

describe('readInputReferences', () => {
  it('decodes a data URL and fetches an http(s) URL, each a PNG, JPEG or WebP read from its bytes', async () => {
    const [fromData] = await read(`data:image/png;base64,${png.toString('base64')}`);
    expect(fromData).toEqual({ bytes: png, filename: 'image-0.png', contentType: 'image/png' });
    const [fetched] = await read('https://example.com/a');
    expect(fetched!.contentType).toBe('image/png');
  });

  it.each([
    ['a body past the limit', 'https://x/a.png', { truncated: true }, 'Upload too large: input_references[0].image_url.url is larger than'],
    ['a file that is no image', 'data:text/plain;base64,aGVsbG8=', {}, 'an input image must be a PNG, JPEG or WebP'],
    ['an answer other than 200', 'https://x/a.png', { status: 404 }, 'https://x/a.png answered 404'],
    [
      'a blocked address',
      'http://10.0.0.1/a.png',
      new SafeFetchError('blocked', '10.0.0.1 is private'),
      'could not be fetched (10.0.0.1 is private)',
    ],
    ['another scheme', 'file:///etc/passwd', {}, 'must be a base64 data URL or an http(s) URL'],
  ])('refuses %s, naming the item', async (_, url, answer, message) => {
    await expect(read(url, answer)).rejects.toThrow(message);
  });

  it('refuses a data URL past the limit before decoding it', async () => {
    const huge = `data:image/png;base64,${'A'.repeat(Math.ceil((INPUT_IMAGE_LIMITS.maxBytes * 4) / 3) + 8)}`;
    await expect(read(huge)).rejects.toMatchObject({ statusCode: 413 });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { makePdf } from '../../../test/support/make-pdf.js';
import { extractPdfText, UnreadablePdfError } from './extract-pdf-text.js';
import { PdfTextCache } from './pdf-text-cache.js';

describe('extractPdfText', () => {
  it('reads the text of every page, in order', async () => {
    const pdf = await makePdf(['Quarterly revenue was 42 million.', 'Page two says goodbye.']);
    expect(await extractPdfText(pdf)).toEqual({ pages: 2, text: 'Quarterly revenue was 42 million.\n\nPage two says goodbye.' });
  });

  it('refuses what is not a PDF, and a PDF that is broken', async () => {
    await expect(extractPdfText(new TextEncoder().encode('hello'))).rejects.toThrow(UnreadablePdfError);
    const pdf = await makePdf(['x']);
    await expect(extractPdfText(pdf.subarray(0, 200))).rejects.toThrow(UnreadablePdfError);
  });

  it('leaves the caller’s bytes usable', async () => {
    const pdf = await makePdf(['again']);
    await extractPdfText(pdf);
    expect((await extractPdfText(pdf)).text).toBe('again');
  });
});

describe('PdfTextCache', () => {
  it('parses a file once, by content hash, and shares a parse in flight', async () => {
    const parse = vi.fn(extractPdfText);
    const cache = new PdfTextCache(parse);
    const pdf = await makePdf(['cached text']);
    const [first, concurrent] = await Promise.all([cache.text(pdf), cache.text(new Uint8Array(pdf))]);
    const again = await cache.text(pdf);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(first).toMatchObject({ text: 'cached text', pages: 1, cached: false });
    expect(concurrent.text).toBe('cached text');
    expect(again).toMatchObject({ text: 'cached text', cached: true, sha256: first.sha256 });
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not keep a failed parse', async () => {
    const parse = vi.fn(extractPdfText);
    const cache = new PdfTextCache(parse);
    const junk = new TextEncoder().encode('%PDF-1.7 not really');
    await expect(cache.text(junk)).rejects.toThrow(UnreadablePdfError);
    await expect(cache.text(junk)).rejects.toThrow(UnreadablePdfError);
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('drops the least recently used text when full', async () => {
    const parse = vi.fn(extractPdfText);
    const cache = new PdfTextCache(parse, 20);
    const a = await makePdf(['aaaaaaaaaaaaaaa']);
    const b = await makePdf(['bbbbbbbbbbbbbbb']);
    await cache.text(a);
    await cache.text(b);
    expect((await cache.text(a)).cached).toBe(false);
  });
});

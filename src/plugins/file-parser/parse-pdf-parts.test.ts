import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makePdf, pdfDataUrl } from '../../../test/support/make-pdf.js';
import type { ChatRequest, ContentPart } from '../../protocol/chat.js';
import { GatewayError } from '../../protocol/gateway-error.js';
import { extractPdfText } from './extract-pdf-text.js';
import { type FileParserDependencies, type PdfSupport, parsePdfParts } from './parse-pdf-parts.js';
import { PdfTextCache } from './pdf-text-cache.js';

let pdf: Uint8Array;
beforeAll(async () => {
  pdf = await makePdf(['Invoice total: 1,234 EUR.', 'Due in 30 days.']);
});

const TEXT_ONLY: PdfSupport = { native: false, fetchesUrls: false };
const READS_PDF: PdfSupport = { native: true, fetchesUrls: false };
const FETCHES_URLS: PdfSupport = { native: true, fetchesUrls: true };

function deps(): FileParserDependencies & { download: ReturnType<typeof vi.fn> } {
  return { cache: new PdfTextCache(extractPdfText), download: vi.fn(async () => pdf) };
}

const withFile = (file_data: string, filename?: string): ChatRequest => ({
  messages: [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Summarize' },
        { type: 'file', file: { file_data, ...(filename ? { filename } : {}) } },
      ],
    },
  ],
});
const partOf = (request: ChatRequest) => (request.messages[1]!.content as ContentPart[])[1];

describe('parsePdfParts', () => {
  it('replaces a PDF by its text for a model that reads no PDFs', async () => {
    const { request, files } = await parsePdfParts(withFile(pdfDataUrl(pdf), 'invoice.pdf'), {}, TEXT_ONLY, deps());
    expect(partOf(request)).toEqual({
      type: 'text',
      text: '<file name="invoice.pdf" pages="2">\nInvoice total: 1,234 EUR.\n\nDue in 30 days.\n</file>',
    });
    expect(files).toEqual([
      expect.objectContaining({ field: 'messages[1].content[1]', filename: 'invoice.pdf', engine: 'pdf-text', pages: 2, cached: false }),
    ]);
    expect(request.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('keeps the file for a model that reads PDFs, unless text is asked for', async () => {
    const original = withFile(pdfDataUrl(pdf));
    const native = await parsePdfParts(original, {}, READS_PDF, deps());
    expect(partOf(native.request)).toEqual(partOf(original));
    expect(native.files).toEqual([{ field: 'messages[1].content[1]', filename: null, engine: 'native' }]);

    for (const engine of ['pdf-text', 'cloudflare-ai']) {
      const text = await parsePdfParts(original, { pdf: { engine } }, READS_PDF, deps());
      expect(partOf(text.request)).toMatchObject({ type: 'text' });
    }
  });

  it('extracts the text when native is asked of a model that reads no PDFs, and says so', async () => {
    const { request, files } = await parsePdfParts(withFile(pdfDataUrl(pdf)), { pdf: { engine: 'native' } }, TEXT_ONLY, deps());
    expect(partOf(request)).toMatchObject({ type: 'text' });
    expect(files[0]).toMatchObject({ engine: 'pdf-text', reason: 'the model reads no PDFs; its text was extracted instead' });
  });

  it('downloads a PDF URL for text extraction, or to inline it for a provider that cannot fetch it', async () => {
    const url = 'https://files.example.com/report';
    const text = deps();
    expect(partOf((await parsePdfParts(withFile(url), {}, TEXT_ONLY, text)).request)).toMatchObject({ type: 'text' });
    expect(text.download).toHaveBeenCalledWith(url);

    const inlined = await parsePdfParts(withFile(url, 'r.pdf'), {}, READS_PDF, deps());
    expect(partOf(inlined.request)).toEqual({ type: 'file', file: { file_data: pdfDataUrl(pdf), filename: 'r.pdf' } });

    const passed = deps();
    const byUrl = await parsePdfParts(withFile(url), {}, FETCHES_URLS, passed);
    expect(partOf(byUrl.request)).toEqual(partOf(withFile(url)));
    expect(passed.download).not.toHaveBeenCalled();
  });

  it('parses a file sent again from the cache', async () => {
    const shared = deps();
    await parsePdfParts(withFile(pdfDataUrl(pdf)), {}, TEXT_ONLY, shared);
    const again = await parsePdfParts(withFile(pdfDataUrl(pdf)), {}, TEXT_ONLY, shared);
    expect(again.files[0]).toMatchObject({ cached: true });
  });

  it('leaves requests without PDFs, and files that are not PDFs, alone', async () => {
    const plain: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };
    expect((await parsePdfParts(plain, {}, TEXT_ONLY, deps())).request).toBe(plain);
    const textFile = withFile('data:text/plain;base64,aGVsbG8=', 'notes.txt');
    const result = await parsePdfParts(textFile, {}, TEXT_ONLY, deps());
    expect(result.request).toBe(textFile);
    expect(result.files).toEqual([]);
  });

  it('refuses mistral-ocr, an unreadable PDF and a URL it cannot fetch with a 400 naming the field', async () => {
    const failure = async (promise: Promise<unknown>) => {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      return { status: (error as GatewayError).statusCode, message: (error as GatewayError).message };
    };
    expect(await failure(parsePdfParts(withFile(pdfDataUrl(pdf)), { pdf: { engine: 'mistral-ocr' } }, TEXT_ONLY, deps()))).toEqual({
      status: 400,
      message:
        'file-parser pdf.engine "mistral-ocr" is not available on this gateway: it needs an OCR service; use "pdf-text" (the text layer) or "native"',
    });
    expect(await failure(parsePdfParts(withFile('data:application/pdf;base64,aGVsbG8='), {}, TEXT_ONLY, deps()))).toEqual({
      status: 400,
      message: 'messages[1].content[1].file.file_data is not a PDF (it does not start with %PDF-)',
    });
    const broken = pdfDataUrl(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(50)]));
    expect((await failure(parsePdfParts(withFile(broken), {}, TEXT_ONLY, deps()))).message).toMatch(
      /^messages\[1\]\.content\[1\]\.file\.file_data the PDF cannot be read \(/,
    );
    const unreachable = deps();
    unreachable.download.mockRejectedValue(new Error('evil.test resolves to a blocked address: 127.0.0.1 is a loopback address'));
    expect(await failure(parsePdfParts(withFile('http://evil.test/a.pdf'), {}, TEXT_ONLY, unreachable))).toEqual({
      status: 400,
      message:
        'messages[1].content[1].file.file_data http://evil.test/a.pdf could not be fetched (evil.test resolves to a blocked address: 127.0.0.1 is a loopback address)',
    });
    expect((await failure(parsePdfParts(withFile('ftp://x/a.pdf'), {}, TEXT_ONLY, deps()))).message).toBe(
      'messages[1].content[1].file.file_data must be a data URL or an http(s) URL',
    );
  });
});

import { extractText, getDocumentProxy } from 'unpdf';

export interface PdfText {
  pages: number;
  /** The pages' text, in order, a blank line between pages. */
  text: string;
}

/** A file that is not a PDF, or one that PDF.js cannot read. */
export class UnreadablePdfError extends Error {
  override readonly name = 'UnreadablePdfError';
}

/** The first bytes of every PDF file. */
export const isPdf = (bytes: Uint8Array) => bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';

/**
 * The text layer of a PDF, page by page (unpdf: Mozilla's PDF.js built to run
 * without a browser, pure JavaScript). Scanned pages have no text layer and
 * give nothing: that needs OCR, which this gateway does not have.
 */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  if (!isPdf(bytes)) throw new UnreadablePdfError('the file does not start with %PDF-');
  try {
    // PDF.js takes ownership of the buffer it is given: hand it a copy.
    // Verbosity 0: errors only; PDF.js otherwise writes warnings about damaged files to the console.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const { totalPages, text } = await extractText(document, { mergePages: false });
      return { pages: totalPages, text: text.map((page) => page.trim()).join('\n\n') };
    } finally {
      await document.destroy();
    }
  } catch (error) {
    throw new UnreadablePdfError(error instanceof Error ? error.message : String(error));
  }
}

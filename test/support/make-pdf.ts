import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * A real PDF with one line of text per page, written by pdf-lib (a PDF
 * writer, not hand-made bytes), with fixed dates so the bytes are the same
 * on every run.
 */
export async function makePdf(pages: readonly string[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const fixed = new Date('2026-01-01T00:00:00Z');
  document.setCreationDate(fixed);
  document.setModificationDate(fixed);
  document.setProducer('model-gateway tests');
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const line of pages) document.addPage([400, 200]).drawText(line, { x: 20, y: 150, size: 12, font });
  return document.save({ useObjectStreams: false });
}

export const pdfDataUrl = (bytes: Uint8Array) => `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}`;

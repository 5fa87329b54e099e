import { Errors } from '../../http/errors.js';
import type { ChatMessage, ChatRequest, ContentPart, FilePart } from '../../protocol/chat.js';
import { parseDataUrl } from '../../providers/shared/parse-data-url.js';
import { isPdf, UnreadablePdfError } from './extract-pdf-text.js';
import type { PdfTextCache } from './pdf-text-cache.js';

/** The file-parser plugin's fields (reference FileParserPlugin). */
export interface FileParserFields {
  pdf?: { engine?: string };
}

/** What the serving endpoint can do with a PDF. */
export interface PdfSupport {
  /** The model reads PDFs itself (its input modalities include files). */
  native: boolean;
  /** The provider fetches a document URL itself (Anthropic); others need the bytes inline. */
  fetchesUrls: boolean;
}

export interface FileParserDependencies {
  cache: PdfTextCache;
  /** The bytes behind an http(s) file URL, through the SSRF-safe fetcher; rejects with a readable reason. */
  download: (url: string) => Promise<Uint8Array>;
}

export interface ParsedFile {
  /** Where the part is, e.g. "messages[1].content[0]". */
  field: string;
  filename: string | null;
  engine: 'native' | 'pdf-text';
  /** Why this engine when it is not the one asked for. */
  reason?: string;
  pages?: number;
  characters?: number;
  sha256?: string;
  cached?: boolean;
  downloaded?: boolean;
}

/**
 * Engines of the reference's PDFParserEngine: `pdf-text` (deprecated there,
 * redirected to `cloudflare-ai`) and `cloudflare-ai` both mean text
 * extraction, which the gateway does itself; `native` hands the file to a
 * model that reads PDFs; `mistral-ocr` needs an OCR service this gateway
 * does not have.
 */
const TEXT_ENGINES = new Set(['pdf-text', 'cloudflare-ai']);

/**
 * The request with its PDF file parts made servable by one endpoint: kept
 * as files for a model that reads PDFs (inlined when the provider cannot
 * fetch the URL), otherwise replaced by their text. Without an engine the
 * endpoint decides: native when it can, text otherwise. `native` asked of an
 * endpoint that reads no PDFs falls back to text, and says so.
 */
export async function parsePdfParts(
  request: ChatRequest,
  fields: FileParserFields,
  support: PdfSupport,
  deps: FileParserDependencies,
): Promise<{ request: ChatRequest; files: ParsedFile[] }> {
  const asked = fields.pdf?.engine;
  if (asked === 'mistral-ocr') {
    throw Errors.pluginEngineUnavailable(
      'file-parser pdf.engine',
      asked,
      'it needs an OCR service; use "pdf-text" (the text layer) or "native"',
    );
  }
  const files: ParsedFile[] = [];
  const messages: ChatMessage[] = [];
  for (const [m, message] of request.messages.entries()) {
    if (message.role !== 'user' || typeof message.content === 'string' || !message.content.some((part) => part.type === 'file')) {
      messages.push(message);
      continue;
    }
    const content: ContentPart[] = [];
    for (const [p, part] of message.content.entries()) {
      const field = `messages[${m}].content[${p}]`;
      content.push(part.type === 'file' ? await servePart(part, field, asked, support, deps, files) : part);
    }
    messages.push({ ...message, content });
  }
  return { request: files.length > 0 ? { ...request, messages } : request, files };
}

async function servePart(
  part: FilePart,
  field: string,
  asked: string | undefined,
  support: PdfSupport,
  deps: FileParserDependencies,
  files: ParsedFile[],
): Promise<ContentPart> {
  const source = part.file.file_data;
  const filename = part.file.filename ?? null;
  // A file id points into a provider's own file store: only that provider can read it.
  if (source === undefined) return part;
  const inline = parseDataUrl(source);
  if (inline && inline.mediaType !== 'application/pdf' && !/\.pdf$/i.test(filename ?? '')) return part;
  if (!inline && !/^https?:\/\//i.test(source))
    throw Errors.fileUnreadable(`${field}.file.file_data`, 'must be a data URL or an http(s) URL');

  const wantsText = asked !== undefined && TEXT_ENGINES.has(asked);
  const native = !wantsText && support.native;
  const reason = asked === 'native' && !support.native ? 'the model reads no PDFs; its text was extracted instead' : undefined;
  if (native && (inline || support.fetchesUrls)) {
    files.push({ field, filename, engine: 'native' });
    return part;
  }

  const bytes = inline ? Buffer.from(inline.data, 'base64') : await download(source, field, deps);
  if (!isPdf(bytes)) {
    if (inline) throw Errors.fileUnreadable(`${field}.file.file_data`, 'is not a PDF (it does not start with %PDF-)');
    return part;
  }
  if (native) {
    files.push({ field, filename, engine: 'native', downloaded: true });
    return { type: 'file', file: { ...part.file, file_data: `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}` } };
  }
  let parsed: Awaited<ReturnType<typeof deps.cache.text>>;
  try {
    parsed = await deps.cache.text(bytes);
  } catch (error) {
    throw Errors.fileUnreadable(
      `${field}.file.file_data`,
      `the PDF cannot be read (${error instanceof UnreadablePdfError ? error.message : 'unexpected error'})`,
    );
  }
  files.push({
    field,
    filename,
    engine: 'pdf-text',
    ...(reason ? { reason } : {}),
    pages: parsed.pages,
    characters: parsed.text.length,
    sha256: parsed.sha256,
    cached: parsed.cached,
    ...(inline ? {} : { downloaded: true }),
  });
  const name = filename ?? (inline ? 'document.pdf' : source);
  return { type: 'text', text: `<file name=${JSON.stringify(name)} pages="${parsed.pages}">\n${parsed.text}\n</file>` };
}

async function download(url: string, field: string, deps: FileParserDependencies): Promise<Uint8Array> {
  try {
    return await deps.download(url);
  } catch (error) {
    throw Errors.fileUnreadable(
      `${field}.file.file_data`,
      `${url} could not be fetched (${error instanceof Error ? error.message : 'unexpected error'})`,
    );
  }
}

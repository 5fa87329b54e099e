import type { SafeFetcher } from '../../net/safe-fetch.js';
import { type DomainLists, domainRefusal } from '../shared/domain-rules.js';
import type { TokenCounter } from '../shared/token-counter.js';
import { htmlToPageText } from './html-to-page-text.js';

export interface FetchPageOptions {
  fetcher: SafeFetcher;
  tokens: TokenCounter;
  /** Text of a PDF (file-parser's cached extraction). */
  pdfText: (bytes: Uint8Array) => Promise<string>;
  domains: DomainLists;
  maxContentTokens: number;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface FetchedPage {
  /** Where the content came from, after redirects. */
  url: string;
  status: number;
  title: string;
  content: string;
  /** Cut at the byte limit or at max_content_tokens. */
  truncated: boolean;
}

/** A page the gateway fetched but cannot turn into text. */
export class UnreadablePageError extends Error {
  override readonly name = 'UnreadablePageError';
}

const HEADERS = { 'user-agent': 'model-gateway-web-fetch/1', accept: 'text/html, text/plain, application/pdf;q=0.9, */*;q=0.5' };

/**
 * Fetches a URL for a model and returns its text: HTML as readable text,
 * PDFs through file-parser's extraction, other text as it is. The domain
 * lists judge the URL and every redirect; the SSRF-safe fetcher refuses
 * private, loopback and link-local addresses after resolving names.
 */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const response = await options.fetcher.fetch(url, {
    headers: HEADERS,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    checkUrl: (target) => domainRefusal(target, options.domains),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const mediaType = (response.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const { title, text } = await readable(
    response.body,
    mediaType,
    charsetOf(response.headers['content-type']),
    options.pdfText,
    response.truncated,
  );
  const content = options.tokens.head(text, options.maxContentTokens);
  return { url: response.url, status: response.status, title, content, truncated: response.truncated || content.length < text.length };
}

async function readable(
  body: Buffer,
  mediaType: string,
  charset: string,
  pdfText: FetchPageOptions['pdfText'],
  truncated: boolean,
): Promise<{ title: string; text: string }> {
  if (mediaType === 'application/pdf' || body.subarray(0, 5).toString('latin1') === '%PDF-') {
    // A PDF cut at the byte limit has lost its cross-reference table: unreadable.
    if (truncated) throw new UnreadablePageError('the PDF is larger than the fetch size limit');
    return { title: '', text: await pdfText(new Uint8Array(body)) };
  }
  const text = decode(body, charset);
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml' || (mediaType === '' && /^\s*<(!doctype html|html)/i.test(text)))
    return htmlToPageText(text);
  if (mediaType === '' || mediaType.startsWith('text/') || /^application\/([\w.-]+\+)?(json|xml)$/.test(mediaType))
    return { title: '', text };
  throw new UnreadablePageError(`${mediaType} content cannot be read as text`);
}

function charsetOf(contentType: string | undefined): string {
  return /charset="?([\w-]+)"?/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
}

function decode(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the web's default.
    return new TextDecoder('utf-8').decode(body);
  }
}

import { parseDataUrl } from '../shared/parse-data-url.js';
import type { GeminiPart } from './gemini-api-types.js';

/** The types Gemini reads from files, by extension; anything else goes without a type. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  mov: 'video/mov',
  webm: 'video/webm',
};

/**
 * The part for an image or file URL: a data URL becomes inlineData (bytes in
 * the request, base64 as Gemini wants them), anything else fileData that
 * Gemini fetches itself (http(s) URLs, Files API URIs). The type of a
 * fileData is guessed from the file name or the URL's extension and left out
 * when unknown: Gemini's fileData.mimeType is optional.
 */
export function convertUrlToGeminiPart(url: string, filename?: string): GeminiPart {
  const inline = parseDataUrl(url);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  const mimeType = guessMimeType(filename ?? '') ?? guessMimeType(pathOf(url));
  return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
}

function guessMimeType(name: string): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : MIME_TYPES[extension];
}

/** The path alone, so that a query string (signed URLs) does not hide the extension. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

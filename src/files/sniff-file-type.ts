/** How many of a file's first bytes its type is told from. */
export const SNIFF_BYTES = 8 * 1024;

/** What the files API takes, in the words of its refusal. */
export const ACCEPTED_TYPES = 'a PDF, a PNG/JPEG/GIF/WebP image, a DOCX/XLSX/PPTX document, an MP3/WAV/FLAC/OGG audio file, or UTF-8 text';

const startsWith = (head: Buffer, bytes: readonly number[] | string, at = 0) => {
  const sought = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return head.length >= at + sought.length && head.subarray(at, at + sought.length).equals(sought);
};

/** Office documents are ZIP archives: which one only the name tells without reading the archive's directory. */
const OFFICE: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const extensionOf = (filename: string) => /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';

function binaryType(head: Buffer, filename: string): string | undefined {
  if (startsWith(head, '%PDF-')) return 'application/pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) return 'image/gif';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return 'image/webp';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WAVE', 8)) return 'audio/wav';
  if (startsWith(head, 'fLaC')) return 'audio/flac';
  if (startsWith(head, 'OggS')) return 'audio/ogg';
  // An ID3 tag, or an MPEG audio frame's sync word (11 bits set) with layer III.
  if (startsWith(head, 'ID3') || (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe6) === 0xe2)) return 'audio/mpeg';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return OFFICE[extensionOf(filename)];
  return undefined;
}

/** The text of `head` when it is UTF-8 without NUL bytes (a multi-byte character cut at its end allowed), else undefined. */
function utf8Text(head: Buffer, whole: boolean): string | undefined {
  if (head.includes(0)) return undefined;
  // Up to 3 bytes of a character cut where the head stops.
  for (let cut = 0; cut <= (whole ? 0 : 3); cut++) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
    } catch {
      // try a shorter prefix
    }
  }
  return undefined;
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Text by its structure, as the reference reports it: JSON, JSON Lines, CSV, Markdown, or plain text. */
function textType(text: string, whole: boolean, filename: string): string {
  // The last line of a head that is not the whole file may be cut.
  const lines = text.split(/\r?\n/);
  if (!whole) lines.pop();
  const full = lines.filter((line) => line.trim() !== '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    if (full.length >= 2 && full.every((line) => isJson(line))) return 'application/x-ndjson';
    if (!whole || isJson(text)) return 'application/json';
  }
  const extension = extensionOf(filename);
  if (extension === 'md' || extension === 'markdown' || full.some((line) => /^#{1,6} \S/.test(line))) return 'text/markdown';
  const commas = full.map((line) => line.split(',').length - 1);
  if (extension === 'csv' || (full.length >= 2 && commas[0]! > 0 && commas.every((count) => count === commas[0]))) return 'text/csv';
  return 'text/plain';
}

/**
 * A file's media type told from its first bytes (`head`, at most
 * SNIFF_BYTES; `whole` when that is the whole file), not from its name or
 * declared type, as the reference does: the binary types by their magic
 * numbers, an Office document by its name once its bytes say ZIP, UTF-8
 * text by its structure. Undefined: no type the files API takes.
 */
export function sniffFileType(head: Buffer, whole: boolean, filename: string): string | undefined {
  const binary = binaryType(head, filename);
  if (binary) return binary;
  const text = utf8Text(head, whole);
  return text === undefined ? undefined : textType(text, whole, filename);
}

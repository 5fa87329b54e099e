import type { FastifyReply, FastifyRequest } from 'fastify';
import { SNIFF_BYTES } from '../../files/sniff-file-type.js';
import type { FileStorage } from '../../files/storage/file-storage.js';
import { Errors } from '../../http/errors.js';
import { type FileReceiver, isMultipart, PART_HEADER_BYTES, readForm } from '../../http/form/read-form.js';

/** The caps of an upload's form beyond its file: OpenAI's few fields (`purpose`, `expires_after[…]`) need no more. */
const LIMITS = { files: 1, fields: 8, fieldSize: 1024, parts: 16, fieldNameSize: 64 } as const;
/** A boundary line: `--`, the longest boundary (70) and CRLF, with room to spare. */
const BOUNDARY_LINE_BYTES = 80;

/** A file part as kept: its name as sent, its size and its first bytes (what its type is told from). */
export interface StoredPart {
  filename: string;
  size: number;
  head: Buffer;
}

export interface UploadBounds {
  /** FILES_MAX_BYTES. */
  maxBytes: number;
  /** The workspace's quota, and what its files hold already. */
  quotaBytes: number;
  usedBytes: number;
}

/** Passes a stream's chunks on, keeping its first SNIFF_BYTES in `head`. */
export async function* keepingHead(stream: AsyncIterable<Buffer>, part: { head: Buffer }): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    if (part.head.length < SNIFF_BYTES) part.head = Buffer.concat([part.head, chunk.subarray(0, SNIFF_BYTES - part.head.length)]);
    yield chunk;
  }
}

/**
 * Reads POST /files' multipart body as OpenAI's files.create sends it: the
 * one `file`, written to `storage` under `id` as it arrives (never held in
 * memory), and the text fields. The file may be no larger than FILES_MAX_BYTES
 * nor than the room left in the workspace's quota: past either, a 413 naming
 * it, and nothing kept. A body that is not multipart is a 415.
 */
export async function readFileUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  id: string,
  bounds: UploadBounds,
): Promise<{ fields: Map<string, string[]>; file?: StoredPart }> {
  if (!isMultipart(request))
    throw Errors.unsupportedMediaType(
      'multipart/form-data, as OpenAI’s files.create sends it',
      request.headers['content-type']?.slice(0, 100) ?? 'a body without a content type',
    );
  const room = bounds.quotaBytes - bounds.usedBytes;
  const fileBytes = Math.min(bounds.maxBytes, room);
  const overQuota = () =>
    Errors.storageQuotaExceeded({ quota_bytes: bounds.quotaBytes, used_bytes: bounds.usedBytes }, bounds.quotaBytes, bounds.usedBytes);
  const overSize = (detail: string) => (room < bounds.maxBytes ? overQuota() : Errors.uploadTooLarge(detail));
  const most = `the most a form with a file within the ${bounds.maxBytes}-byte limit (FILES_MAX_BYTES) can be`;
  const receiver: FileReceiver<StoredPart> = {
    async receive({ filename, stream }) {
      const part = { filename, size: 0, head: Buffer.alloc(0) };
      part.size = await storage.write(id, keepingHead(stream as AsyncIterable<Buffer>, part));
      return part;
    },
    discard: () => storage.remove(id),
  };
  const form = await readForm(request, reply, {
    limits: {
      bodyBytes: fileBytes + LIMITS.fields * LIMITS.fieldSize + (LIMITS.parts + 1) * (PART_HEADER_BYTES + BOUNDARY_LINE_BYTES),
      headerBytes: PART_HEADER_BYTES,
      parts: LIMITS.parts,
      files: LIMITS.files,
      fields: LIMITS.fields,
      fileBytes,
      fieldBytes: LIMITS.fieldSize,
      fieldNameBytes: LIMITS.fieldNameSize,
    },
    refusals: {
      body: (declared) => overSize(declared === undefined ? `the body exceeds ${most}` : `the body's ${declared} bytes exceed ${most}`),
      file: () => overSize(`the file exceeds the ${bounds.maxBytes}-byte limit of a file (FILES_MAX_BYTES)`),
      files: () => Errors.uploadTooLarge(`an upload takes ${LIMITS.files} file, in the field "file"`),
      fields: () => Errors.uploadTooLarge(`an upload takes at most ${LIMITS.fields} fields`),
      parts: () => Errors.uploadTooLarge(`an upload takes at most ${LIMITS.parts} parts`),
    },
    refuseFile: (field) =>
      field === 'file' ? undefined : Errors.invalidRequest(`the file must be sent in the field "file" (got "${field.slice(0, 64)}")`),
    receiver,
  });
  const [file] = form.files;
  return file ? { fields: form.fields, file } : { fields: form.fields };
}

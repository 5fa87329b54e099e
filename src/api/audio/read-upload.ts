import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import type { AudioFile } from '../../protocol/transcription.js';
import { multipartFailure } from '../multipart-failure.js';
import type { FormFields } from './to-transcription-request.js';

/** The caps of a transcription upload beyond the file's size: a form of OpenAI's few fields needs no more. */
// A field holds up to 256 KiB: a known speaker's sample is a data URL of up to 10 s of audio.
export const UPLOAD_LIMITS = { files: 1, fields: 16, fieldSize: 256 * 1024, parts: 24, fieldNameSize: 64, headerSize: 16 * 1024 } as const;

/** A boundary line: `--`, busboy's longest boundary (70) and CRLF, with room to spare. */
const BOUNDARY_LINE_BYTES = 80;

/**
 * The largest body a form within every limit can be: the file, each field
 * at its cap, and each part's boundary line and headers at theirs. A body
 * declared larger breaks a limit whatever it holds, so it is refused before
 * a byte of it is read.
 */
export const maxUploadBodyBytes = (maxBytes: number): number =>
  maxBytes + UPLOAD_LIMITS.fields * UPLOAD_LIMITS.fieldSize + (UPLOAD_LIMITS.parts + 1) * (UPLOAD_LIMITS.headerSize + BOUNDARY_LINE_BYTES);

/** The 413 of each limit of a transcription's form. */
const limitErrors = (maxBytes: number) => ({
  FST_REQ_FILE_TOO_LARGE: () => Errors.uploadTooLarge(`the file exceeds the ${maxBytes}-byte limit (TRANSCRIPTION_MAX_BYTES)`),
  FST_FILES_LIMIT: () => Errors.uploadTooLarge(`a transcription takes ${UPLOAD_LIMITS.files} file`),
  FST_FIELDS_LIMIT: () => Errors.uploadTooLarge(`a transcription takes at most ${UPLOAD_LIMITS.fields} fields`),
  FST_PARTS_LIMIT: () => Errors.uploadTooLarge(`a transcription takes at most ${UPLOAD_LIMITS.parts} parts`),
});

/**
 * The file's bytes, refused the moment they pass the limit: busboy would
 * otherwise read on to the part's end, which a chunked body need never reach.
 */
function readFile(file: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.once('limit', () => {
      reject(Errors.uploadTooLarge(`the file exceeds the ${maxBytes}-byte limit (TRANSCRIPTION_MAX_BYTES)`));
      file.destroy();
    });
    file.once('end', () => resolve(Buffer.concat(chunks)));
    file.once('error', reject);
  });
}

/**
 * Reads a transcription's multipart body: its text fields and its one
 * `file`, held whole in memory (at most `maxBytes`, so that a fallback can
 * send it again). Anything past a limit is a 413 naming it, from the
 * declared Content-Length before reading when it is already past, else as
 * soon as the limit is crossed; a body that is not multipart is a 415.
 */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ fields: FormFields; file?: AudioFile }> {
  if (!request.isMultipart()) throw Errors.notMultipart(request.headers['content-type'] ?? 'a body without a content type');
  const declared = Number(request.headers['content-length']);
  if (declared > maxUploadBodyBytes(maxBytes))
    throw Errors.uploadTooLarge(
      `the body's ${declared} bytes exceed the most a form within the ${maxBytes}-byte file limit (TRANSCRIPTION_MAX_BYTES) can be`,
    );
  const fields = new Map<string, string[]>();
  let file: AudioFile | undefined;
  try {
    for await (const part of request.parts({ limits: { ...UPLOAD_LIMITS, fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw Errors.invalidRequest(`the file must be sent in the field "file" (got "${part.fieldname}")`);
        file = {
          bytes: await readFile(part.file, maxBytes),
          filename: part.filename || 'audio',
          contentType: part.mimetype || 'application/octet-stream',
        };
        continue;
      }
      if (part.valueTruncated)
        throw Errors.uploadTooLarge(`the field ${part.fieldname} exceeds the ${UPLOAD_LIMITS.fieldSize}-byte limit of a field`);
      if (typeof part.value !== 'string') throw Errors.invalidRequest(`${part.fieldname} must be a text field`);
      fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), part.value]);
    }
  } catch (error) {
    throw multipartFailure(error, limitErrors(maxBytes));
  }
  return file ? { fields, file } : { fields };
}

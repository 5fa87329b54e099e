import type { FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import type { AudioFile } from '../../protocol/transcription.js';
import { multipartFailure } from '../multipart-failure.js';
import type { FormFields } from './to-transcription-request.js';

/** The caps of a transcription upload beyond the file's size: a form of OpenAI's few fields needs no more. */
export const UPLOAD_LIMITS = { files: 1, fields: 16, fieldSize: 16 * 1024, parts: 24, fieldNameSize: 64 } as const;

/** The 413 of each limit of a transcription's form. */
const limitErrors = (maxBytes: number) => ({
  FST_REQ_FILE_TOO_LARGE: () => Errors.uploadTooLarge(`the file exceeds the ${maxBytes}-byte limit (TRANSCRIPTION_MAX_BYTES)`),
  FST_FILES_LIMIT: () => Errors.uploadTooLarge(`a transcription takes ${UPLOAD_LIMITS.files} file`),
  FST_FIELDS_LIMIT: () => Errors.uploadTooLarge(`a transcription takes at most ${UPLOAD_LIMITS.fields} fields`),
  FST_PARTS_LIMIT: () => Errors.uploadTooLarge(`a transcription takes at most ${UPLOAD_LIMITS.parts} parts`),
});

/**
 * Reads a transcription's multipart body: its text fields and its one
 * `file`, held whole in memory (at most `maxBytes`, so that a fallback can
 * send it again). Anything past a limit is a 413 naming it; a body that is
 * not multipart is a 415.
 */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ fields: FormFields; file?: AudioFile }> {
  if (!request.isMultipart()) throw Errors.notMultipart(request.headers['content-type'] ?? 'a body without a content type');
  const fields = new Map<string, string[]>();
  let file: AudioFile | undefined;
  try {
    for await (const part of request.parts({ limits: { ...UPLOAD_LIMITS, fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw Errors.invalidRequest(`the file must be sent in the field "file" (got "${part.fieldname}")`);
        file = {
          bytes: await part.toBuffer(),
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

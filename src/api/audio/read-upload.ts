import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import { isMultipart, PART_HEADER_BYTES, readForm } from '../../http/form/read-form.js';
import type { AudioFile } from '../../protocol/transcription.js';
import type { FormFields } from './to-transcription-request.js';

/** The caps of a transcription upload beyond the file's size: a form of OpenAI's few fields needs no more. */
// A field holds up to 256 KiB: a known speaker's sample is a data URL of up to 10 s of audio.
const UPLOAD_LIMITS = { files: 1, fields: 16, fieldSize: 256 * 1024, parts: 24, fieldNameSize: 64, headerSize: PART_HEADER_BYTES } as const;

/** A boundary line: `--`, the longest boundary (70) and CRLF, with room to spare. */
const BOUNDARY_LINE_BYTES = 80;

/**
 * The largest body a form within every limit can be: the file, each field
 * at its cap, and each part's boundary line and headers at theirs. A body
 * larger breaks a limit whatever it holds: one declared so is refused before
 * a byte of it is read, and a chunked one when it gets there.
 */
const maxUploadBodyBytes = (maxBytes: number): number =>
  maxBytes + UPLOAD_LIMITS.fields * UPLOAD_LIMITS.fieldSize + (UPLOAD_LIMITS.parts + 1) * (UPLOAD_LIMITS.headerSize + BOUNDARY_LINE_BYTES);

/** The 413 of each limit of a transcription's form, in its own words. */
const refusals = (maxBytes: number) => ({
  body: (declared?: number) => {
    const most = `the most a form within the ${maxBytes}-byte file limit (TRANSCRIPTION_MAX_BYTES) can be`;
    return Errors.uploadTooLarge(declared === undefined ? `the body exceeds ${most}` : `the body's ${declared} bytes exceed ${most}`);
  },
  file: () => Errors.uploadTooLarge(`the file exceeds the ${maxBytes}-byte limit (TRANSCRIPTION_MAX_BYTES)`),
  files: () => Errors.uploadTooLarge(`a transcription takes ${UPLOAD_LIMITS.files} file`),
  fields: () => Errors.uploadTooLarge(`a transcription takes at most ${UPLOAD_LIMITS.fields} fields`),
  parts: () => Errors.uploadTooLarge(`a transcription takes at most ${UPLOAD_LIMITS.parts} parts`),
});

/**
 * Reads a transcription's multipart body (readForm, which holds its limits
 * as it streams in): its text fields and its one `file`, held whole in
 * memory (at most `maxBytes`, so that a fallback can send it again). A
 * request that is not multipart is a 415.
 */
export async function readUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  maxBytes: number,
): Promise<{ fields: FormFields; file?: AudioFile }> {
  if (!isMultipart(request)) throw Errors.notMultipart(request.headers['content-type'] ?? 'a body without a content type');
  const form = await readForm(request, reply, {
    limits: {
      bodyBytes: maxUploadBodyBytes(maxBytes),
      headerBytes: UPLOAD_LIMITS.headerSize,
      parts: UPLOAD_LIMITS.parts,
      files: UPLOAD_LIMITS.files,
      fields: UPLOAD_LIMITS.fields,
      fileBytes: maxBytes,
      fieldBytes: UPLOAD_LIMITS.fieldSize,
      fieldNameBytes: UPLOAD_LIMITS.fieldNameSize,
    },
    refusals: refusals(maxBytes),
    refuseFile: (field) =>
      field === 'file' ? undefined : Errors.invalidRequest(`the file must be sent in the field "file" (got "${field}")`),
  });
  const [file] = form.files;
  if (!file) return { fields: form.fields };
  return {
    fields: form.fields,
    file: { bytes: file.bytes, filename: file.filename || 'audio', contentType: file.contentType || 'application/octet-stream' },
  };
}

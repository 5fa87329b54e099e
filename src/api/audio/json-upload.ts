import { Errors } from '../../http/errors.js';
import type { AudioFile } from '../../protocol/transcription.js';
import { isRecord } from '../../util/is-record.js';
import type { FormFields } from './to-transcription-request.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The text fields a JSON body may carry, as the form's fields (the same rules apply to both). */
const TEXT_FIELDS = ['model', 'language', 'prompt', 'response_format', 'user'] as const;

/**
 * The reference's JSON form of a transcription (STTRequest): the audio as
 * `input_audio: {data: base64, format: "wav"}` and the form's other fields,
 * read into the form's shape so that the same rules check both. Audio
 * larger than `maxBytes` once decoded is a 413 naming the limit.
 */
export function readJsonUpload(body: unknown, maxBytes: number): { fields: FormFields; file?: AudioFile } {
  if (!isRecord(body)) throw Errors.invalidRequest('the body must be a JSON object');
  const fields = new Map<string, string[]>();
  for (const name of TEXT_FIELDS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw Errors.invalidRequest(`${name} must be a string`);
    fields.set(name, [value]);
  }
  if (body.temperature !== undefined) {
    if (typeof body.temperature !== 'number') throw Errors.invalidRequest('temperature must be a number from 0 to 1');
    fields.set('temperature', [String(body.temperature)]);
  }
  if (body.stream !== undefined) {
    if (typeof body.stream !== 'boolean') throw Errors.invalidRequest('stream must be true or false');
    fields.set('stream', [String(body.stream)]);
  }
  if (body.chunking_strategy !== undefined)
    fields.set('chunking_strategy', [
      typeof body.chunking_strategy === 'string' ? body.chunking_strategy : JSON.stringify(body.chunking_strategy),
    ]);
  for (const name of ['known_speaker_names', 'known_speaker_references', 'include'] as const) {
    const values = body[name];
    if (values === undefined) continue;
    if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
      throw Errors.invalidRequest(`${name} must be an array of strings`);
    fields.set(`${name}[]`, values as string[]);
  }
  const granularities = body.timestamp_granularities;
  if (granularities !== undefined) {
    if (!Array.isArray(granularities) || granularities.some((g) => typeof g !== 'string'))
      throw Errors.invalidRequest('timestamp_granularities must be an array of word and segment');
    fields.set('timestamp_granularities[]', granularities as string[]);
  }
  const audio = body.input_audio;
  if (audio === undefined) return { fields };
  if (!isRecord(audio) || typeof audio.data !== 'string' || typeof audio.format !== 'string' || !/^[a-z0-9]{1,10}$/.test(audio.format))
    throw Errors.invalidRequest('input_audio must be {"data": base64 audio, "format": its format such as "wav"}');
  if (!BASE64.test(audio.data)) throw Errors.invalidRequest('input_audio.data must be base64 (raw bytes, not a data URI)');
  // Checked before decoding: base64 holds 3 bytes in 4 characters.
  if (Math.floor((audio.data.length * 3) / 4) > maxBytes + 2)
    throw Errors.uploadTooLarge(`the audio exceeds the ${maxBytes}-byte limit (TRANSCRIPTION_MAX_BYTES)`);
  const bytes = Buffer.from(audio.data, 'base64');
  if (bytes.length > maxBytes) throw Errors.uploadTooLarge(`the audio exceeds the ${maxBytes}-byte limit (TRANSCRIPTION_MAX_BYTES)`);
  return { fields, file: { bytes, filename: `audio.${audio.format}`, contentType: `audio/${audio.format}` } };
}

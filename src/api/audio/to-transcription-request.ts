import { Errors } from '../../http/errors.js';
import {
  type AudioFile,
  TRANSCRIPTION_FORMATS,
  type TranscriptionFormat,
  type TranscriptionRequest,
} from '../../protocol/transcription.js';
import { readChunkingStrategy } from './read-chunking-strategy.js';

/** The text fields of a multipart form, each with every value sent (in order). */
export type FormFields = ReadonlyMap<string, readonly string[]>;

const GRANULARITIES = ['word', 'segment'] as const;

/** The one value of a field, or undefined; a field sent twice is a 400 naming it. */
function single(fields: FormFields, name: string): string | undefined {
  const values = fields.get(name);
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) throw Errors.invalidRequest(`${name} must be sent once (it was sent ${values.length} times)`);
  return values[0];
}

/** OpenAI's cap on known speakers. */
const MAX_KNOWN_SPEAKERS = 4;

/** `known_speaker_names[]` and `known_speaker_references[]`: at most 4 names, each with its sample as a data URL. */
function readSpeakers(fields: FormFields): Pick<TranscriptionRequest, 'known_speaker_names' | 'known_speaker_references'> {
  const names = fields.get('known_speaker_names[]') ?? [];
  const references = fields.get('known_speaker_references[]') ?? [];
  if (names.length === 0 && references.length === 0) return {};
  if (names.length > MAX_KNOWN_SPEAKERS)
    throw Errors.invalidRequest(`known_speaker_names[] takes at most ${MAX_KNOWN_SPEAKERS} speakers (got ${names.length})`);
  if (names.length !== references.length)
    throw Errors.invalidRequest(
      `known_speaker_references[] must give one sample per name of known_speaker_names[] (got ${references.length} for ${names.length})`,
    );
  const notDataUrl = references.findIndex((reference) => !/^data:[^,]*,/.test(reference));
  if (notDataUrl >= 0) throw Errors.invalidRequest(`known_speaker_references[${notDataUrl}] must be a data URL (data:audio/wav;base64,…)`);
  return { known_speaker_names: [...names], known_speaker_references: [...references] };
}

/**
 * A transcription request from OpenAI's form fields: `file` and `model`
 * required; `language`, `prompt`, `response_format` (json by default: json,
 * text, srt, verbose_json or vtt), `temperature` (0 to 1),
 * `timestamp_granularities[]` (word, segment; verbose_json only), `stream`
 * (true or false), `include[]` (logprobs), `user`, and for diarizing models `chunking_strategy`,
 * `known_speaker_names[]` and `known_speaker_references[]`.
 * Fields it does not know are left out. Each broken rule is a 400 naming
 * the field.
 */
export function toTranscriptionRequest(fields: FormFields, file: AudioFile | undefined): TranscriptionRequest {
  if (!file) throw Errors.invalidRequest('file is required: the audio to transcribe, as a file part named "file"');
  if (file.bytes.length === 0) throw Errors.invalidRequest('file must not be empty');
  const model = single(fields, 'model');
  if (!model) throw Errors.invalidRequest('model is required');
  const format = single(fields, 'response_format') ?? 'json';
  if (!(TRANSCRIPTION_FORMATS as readonly string[]).includes(format))
    throw Errors.invalidRequest(`response_format must be one of ${TRANSCRIPTION_FORMATS.join(', ')} (got "${format}")`);
  const temperatureText = single(fields, 'temperature');
  const temperature = temperatureText === undefined ? undefined : Number(temperatureText);
  if (temperature !== undefined && (temperatureText?.trim() === '' || !(temperature >= 0 && temperature <= 1)))
    throw Errors.invalidRequest(`temperature must be a number from 0 to 1 (got "${temperatureText}")`);
  const granularities = [...(fields.get('timestamp_granularities[]') ?? []), ...(fields.get('timestamp_granularities') ?? [])];
  for (const value of granularities)
    if (!(GRANULARITIES as readonly string[]).includes(value))
      throw Errors.invalidRequest(`timestamp_granularities[] must be word or segment (got "${value}")`);
  if (granularities.length > 0 && format !== 'verbose_json')
    throw Errors.invalidRequest(`timestamp_granularities[] needs response_format verbose_json (got "${format}")`);
  const include = [...(fields.get('include[]') ?? []), ...(fields.get('include') ?? [])];
  for (const value of include) if (value !== 'logprobs') throw Errors.invalidRequest(`include[] takes only logprobs (got "${value}")`);
  const speakers = readSpeakers(fields);
  const chunking = readChunkingStrategy(fields);
  const streamText = single(fields, 'stream');
  if (streamText !== undefined && streamText !== 'true' && streamText !== 'false')
    throw Errors.invalidRequest(`stream must be true or false (got "${streamText}")`);
  const optional = {
    language: single(fields, 'language'),
    prompt: single(fields, 'prompt'),
    temperature,
    user: single(fields, 'user'),
    stream: streamText === 'true' ? true : undefined,
  };
  return {
    model,
    file,
    response_format: format as TranscriptionFormat,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    ...(granularities.length > 0 ? { timestamp_granularities: [...new Set(granularities)] as ('word' | 'segment')[] } : {}),
    ...(chunking !== undefined ? { chunking_strategy: chunking } : {}),
    ...(include.length > 0 ? { include: ['logprobs' as const] } : {}),
    ...speakers,
  };
}

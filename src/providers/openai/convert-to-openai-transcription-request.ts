import type { TranscriptionFormat, TranscriptionRequest } from '../../protocol/transcription.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';

/**
 * What the gateway asks of OpenAI for the client's format: always JSON, so
 * that it reads the duration and usage it bills; verbose_json (segments and
 * duration) for the formats drawn from segments, json for the plain text,
 * diarized_json (the speakers' segments) as itself.
 */
export const openAIFormatFor = (format: TranscriptionFormat): 'json' | 'verbose_json' | 'diarized_json' =>
  format === 'json' || format === 'text' ? 'json' : format === 'diarized_json' ? format : 'verbose_json';

/** OpenAI's multipart POST /audio/transcriptions body: the file, the upstream model and the options the client set. */
export function convertToOpenAITranscriptionRequest(
  request: TranscriptionRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
): FormData {
  const form = new FormData();
  form.append('file', new Blob([request.file.bytes], { type: request.file.contentType }), request.file.filename);
  form.append('model', target.upstreamModel);
  form.append('response_format', openAIFormatFor(request.response_format));
  if (request.language !== undefined) form.append('language', request.language);
  if (request.prompt !== undefined) form.append('prompt', request.prompt);
  if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
  for (const granularity of request.timestamp_granularities ?? []) form.append('timestamp_granularities[]', granularity);
  const chunking = request.chunking_strategy;
  // As OpenAI's own SDK writes them: `auto` as it is, the VAD's settings as chunking_strategy[name] fields.
  if (chunking === 'auto') form.append('chunking_strategy', chunking);
  else if (chunking) for (const [name, value] of Object.entries(chunking)) form.append(`chunking_strategy[${name}]`, String(value));
  for (const name of request.known_speaker_names ?? []) form.append('known_speaker_names[]', name);
  for (const reference of request.known_speaker_references ?? []) form.append('known_speaker_references[]', reference);
  for (const item of request.include ?? []) form.append('include[]', item);
  if (request.stream) form.append('stream', 'true');
  return form;
}

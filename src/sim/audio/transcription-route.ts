import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRANSCRIPTION_FORMATS, type TranscriptionFormat, type TranscriptTextSegment } from '../../protocol/transcription.js';
import { renderTranscription } from '../../transcription/render-transcription.js';
import { hasBearerToken, type SimContext, signalOnClose } from '../chat-route.js';
import { deliverStream, OPENAI_FRAMING, pause, type SseFraming, sendError } from '../deliver.js';
import { parseKnobs } from '../knobs.js';
import { type OpenAiError, openAiError, SimErrors } from '../openai-errors.js';
import { audioDuration, diarizedSegments, pieceLogprobs, simTranscript, wordPieces } from './transcription-audio.js';
import { rulesOf, transcriptionRefusal } from './transcription-models.js';

/** OpenAI's upload cap for audio: 25 MiB. */
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const GRANULARITIES = ['word', 'segment'];
/** Audio tokens a second OpenAI's audio models count. */
const AUDIO_TOKENS_PER_SECOND = 10;

interface SimTranscriptionRequest {
  model: string;
  audio: Buffer;
  format: TranscriptionFormat;
  granularities: string[];
  language: string;
  stream: boolean;
  chunked: boolean;
  speakers: string[];
  logprobs: boolean;
}

/** Reads the body as OpenAI's POST /v1/audio/transcriptions does: multipart form data with a file and a model. */
export async function readTranscriptionRequest(
  raw: Buffer,
  contentType: string | undefined,
): Promise<{ ok: true; request: SimTranscriptionRequest } | { ok: false; error: OpenAiError }> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data'))
    return {
      ok: false,
      error: openAiError(400, `Invalid Content-Type header (${contentType ?? 'none'}), expected multipart/form-data.`),
    };
  if (raw.length > MAX_FILE_BYTES)
    return { ok: false, error: openAiError(413, `Maximum content size limit (${MAX_FILE_BYTES}) exceeded (${raw.length} bytes read)`) };
  let form: FormData;
  try {
    // The platform's own multipart parser (fetch's Response.formData).
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { ok: false, error: openAiError(400, 'Could not parse multipart form') };
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) return { ok: false, error: SimErrors.missingParameter('file') };
  const model = form.get('model');
  if (typeof model !== 'string' || model === '') return { ok: false, error: SimErrors.missingModel() };
  const format = form.get('response_format') ?? 'json';
  if (!(TRANSCRIPTION_FORMATS as readonly unknown[]).includes(format))
    return { ok: false, error: SimErrors.invalidValue('response_format', String(format), TRANSCRIPTION_FORMATS) };
  const granularities = form.getAll('timestamp_granularities[]').map(String);
  const unknown = granularities.find((g) => !GRANULARITIES.includes(g));
  if (unknown !== undefined) return { ok: false, error: SimErrors.invalidValue('timestamp_granularities[]', unknown, GRANULARITIES) };
  const temperature = form.get('temperature');
  if (temperature !== null && !(Number(temperature) >= 0 && Number(temperature) <= 1))
    return { ok: false, error: SimErrors.invalidValue('temperature', String(temperature), ['0 to 1']) };
  const audio = Buffer.from(await file.arrayBuffer());
  if (audio.length === 0) return { ok: false, error: openAiError(400, 'Audio file is empty.', { param: 'file' }) };
  const language = form.get('language');
  return {
    ok: true,
    request: {
      model,
      audio,
      format: format as TranscriptionFormat,
      granularities,
      language: typeof language === 'string' ? language : 'english',
      stream: form.get('stream') === 'true',
      chunked: [...form.keys()].some((name) => name === 'chunking_strategy' || name.startsWith('chunking_strategy[')),
      speakers: form.getAll('known_speaker_names[]').map(String),
      logprobs: form.getAll('include[]').includes('logprobs'),
    },
  };
}

/** OpenAI's transcription stream: data-only events ending with `transcript.text.done`, no `[DONE]`. */
const TRANSCRIPT_FRAMING: SseFraming = { ...OPENAI_FRAMING, end: '' };

/**
 * A delta per word of the text, then the done event with the whole text and
 * its usage; diarized, each segment's words (deltas naming their
 * `segment_id`) and then the segment itself.
 */
export const transcriptEvents = (
  text: string,
  usage: Record<string, unknown>,
  { diarized, logprobs = false }: { diarized?: TranscriptTextSegment[] | undefined; logprobs?: boolean } = {},
): string[] => {
  const withLogprobs = (delta: string) => (logprobs ? { logprobs: pieceLogprobs(delta) } : {});
  return [
    ...(diarized
      ? diarized.flatMap((segment) => [
          ...wordPieces(segment.text).map((delta) => ({ type: 'transcript.text.delta', delta, segment_id: segment.id })),
          segment,
        ])
      : wordPieces(text).map((delta) => ({ type: 'transcript.text.delta', delta, ...withLogprobs(delta) }))
    ).map((event) => JSON.stringify(event)),
    JSON.stringify({ type: 'transcript.text.done', text, ...withLogprobs(text), usage }),
  ];
};

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `POST /v1/audio/transcriptions`, OpenAI's speech to text (Whisper): a
 * deterministic transcript of the uploaded audio, whose duration is read
 * from a WAV header (other files: their size at 128 kbit/s), in every
 * format OpenAI answers (json and verbose_json with `usage` in whole
 * seconds, text, srt, vtt); words in verbose_json when asked. The
 * gpt-4o transcribe models answer json or text only, with token usage, and
 * refuse audio over their limit (transcription-models.ts), and with
 * `stream=true` send their text as server-sent events (`chunk_delay`,
 * `fail_after` and `fail_mode` as in chat streams). The model
 * name's knobs work as elsewhere (`status`, `retry_after`, `latency`, `hang`).
 */
export async function handleTranscription(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const raw = await readRaw(req);
  if (!hasBearerToken(req.headers.authorization)) return sendError(res, SimErrors.missingApiKey());
  const read = await readTranscriptionRequest(raw, req.headers['content-type']);
  context.stats.recordChatRequest(read.ok ? { ...read.request, audio: `${read.request.audio.length} bytes` } : null, req.headers);
  if (!read.ok) return sendError(res, read.error);
  const parsed = parseKnobs(read.request.model, req.headers);
  if (!parsed.ok) return sendError(res, SimErrors.invalidKnob(parsed.message));
  const { knobs } = parsed;
  if (knobs.hang) return;
  await pause(knobs.latencyMs, signalOnClose(res));
  if (knobs.status !== undefined)
    return sendError(res, SimErrors.simulatedStatus(knobs.status, parsed.model ?? ''), knobs.retryAfterSeconds);
  const { model, audio, format, granularities, language, stream, chunked, speakers, logprobs } = read.request;
  const name = parsed.model ?? model;
  const duration = Math.round(audioDuration(audio) * 1000) / 1000;
  const refusal = transcriptionRefusal({ model: name, format, granularities, duration, chunked });
  if (refusal) return sendError(res, refusal);
  const { tokenBilled, diarizes } = rulesOf(name);
  // OpenAI gives logprobs with json from the gpt-4o transcribe models only, not the diarizing one.
  const withLogprobs = logprobs && tokenBilled && !diarizes && format === 'json';
  const { text, segments, words } = simTranscript(duration);
  const diarized = format === 'diarized_json' ? diarizedSegments(segments, speakers) : undefined;
  const answer = {
    text,
    language,
    ...(diarized ? { segments: diarized } : granularities.length === 0 || granularities.includes('segment') ? { segments } : {}),
    ...(granularities.includes('word') ? { words } : {}),
    ...(withLogprobs ? { logprobs: pieceLogprobs(text) } : {}),
  };
  // OpenAI bills whisper by the second, rounded up, and the gpt-4o models by token; its usage says which.
  const audioTokens = Math.ceil(duration * AUDIO_TOKENS_PER_SECOND);
  const outputTokens = Math.ceil(text.length / 4);
  const usage = tokenBilled
    ? {
        type: 'tokens',
        input_tokens: audioTokens,
        input_token_details: { text_tokens: 0, audio_tokens: audioTokens },
        output_tokens: outputTokens,
        total_tokens: audioTokens + outputTokens,
      }
    : { type: 'duration', seconds: Math.ceil(duration) };
  // whisper-1 ignores `stream`, as OpenAI documents; the gpt-4o models stream their text's words, then the whole text.
  if (stream && tokenBilled)
    return deliverStream(
      res,
      transcriptEvents(text, usage, { diarized, logprobs: withLogprobs }),
      knobs,
      signalOnClose(res),
      TRANSCRIPT_FRAMING,
    );
  const rendered = renderTranscription(format, answer, duration, usage);
  res.writeHead(200, { 'content-type': rendered.contentType, 'content-length': Buffer.byteLength(rendered.body) });
  res.end(rendered.body);
}

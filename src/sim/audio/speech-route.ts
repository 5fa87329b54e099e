import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitOpenAIRequest, type SimContext } from '../chat-route.js';
import { deliverStream, OPENAI_FRAMING, pause, type SseFraming, sendError } from '../deliver.js';
import { type OpenAiError, SimErrors } from '../openai-errors.js';
import { silentAdtsAac } from './adts-aac.js';
import { flac } from './flac.js';
import { silentOggOpus } from './ogg-opus.js';
import { SAMPLE_RATE, silentMp3, tonePcm, wav } from './sim-audio.js';

const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'];

/** OpenAI's formats, each with its Content-Type and the simulator's rendering of 16-bit PCM at 24 kHz. */
const FORMATS: Readonly<Record<string, { type: string; render: (pcm: Buffer) => Buffer }>> = {
  mp3: { type: 'audio/mpeg', render: (pcm) => silentMp3(pcm.length / 2) },
  opus: { type: 'audio/opus', render: (pcm) => silentOggOpus(pcm.length / 2) },
  aac: { type: 'audio/aac', render: (pcm) => silentAdtsAac(pcm.length / 2) },
  flac: { type: 'audio/flac', render: flac },
  wav: { type: 'audio/wav', render: wav },
  pcm: { type: 'audio/pcm', render: (pcm) => pcm },
};
const MAX_INPUT = 4_096;
/** Bytes per streamed piece of audio. */
const PIECE = 4_800;

/** The models that speak only raw audio: OpenAI streams SSE from gpt-4o-mini-tts and later, not from these. */
const AUDIO_ONLY_MODELS = new Set(['tts-1', 'tts-1-hd']);

interface SimSpeechRequest {
  input: string;
  format: string;
  speed: number;
  /** `sse`: the audio as speech.audio.delta events, then speech.audio.done with the usage. */
  sse?: boolean;
}

/**
 * Reads a body as OpenAI's POST /v1/audio/speech checks it; a server that
 * `ignoresStreamFormat` (the raw_audio knob) neither checks nor honours it.
 */
export function readSpeechRequest(
  body: unknown,
  model: string | undefined,
  ignoresStreamFormat = false,
): { ok: true; request: SimSpeechRequest } | { ok: false; error: OpenAiError } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!model) return { ok: false, error: SimErrors.missingModel() };
  const { input, voice, response_format = 'mp3', speed = 1 } = fields;
  const stream_format = ignoresStreamFormat ? 'audio' : (fields.stream_format ?? 'audio');
  if (typeof input !== 'string' || input === '') return { ok: false, error: SimErrors.missingParameter('input') };
  if (input.length > MAX_INPUT)
    return {
      ok: false,
      error: SimErrors.invalidType('input', `a string of at most ${MAX_INPUT} characters`, `${input.length} characters`),
    };
  if (voice === undefined) return { ok: false, error: SimErrors.missingParameter('voice') };
  if (!VOICES.includes(voice as string)) return { ok: false, error: SimErrors.invalidValue('voice', String(voice), VOICES) };
  if (!Object.hasOwn(FORMATS, response_format as string))
    return { ok: false, error: SimErrors.invalidValue('response_format', String(response_format), Object.keys(FORMATS)) };
  if (typeof speed !== 'number' || speed < 0.25 || speed > 4)
    return { ok: false, error: SimErrors.invalidValue('speed', String(speed), ['0.25 to 4.0']) };
  if (stream_format !== 'audio' && stream_format !== 'sse')
    return { ok: false, error: SimErrors.invalidValue('stream_format', String(stream_format), ['sse', 'audio']) };
  if (stream_format === 'sse' && AUDIO_ONLY_MODELS.has(model))
    return { ok: false, error: SimErrors.invalidValue('stream_format', 'sse', ['audio']) };
  return { ok: true, request: { input, format: response_format as string, speed, ...(stream_format === 'sse' ? { sse: true } : {}) } };
}

/**
 * The audio bytes of a request: a tone as long as the text takes to say, in
 * the format asked for (lossless ones carry the tone; mp3, opus and aac are
 * silence of that length, which needs no encoder).
 */
export function speechAudio({ input, format, speed }: SimSpeechRequest): Buffer {
  return FORMATS[format]!.render(tonePcm([...input].length, speed));
}

/**
 * What the simulator bills a speech: the text's tokens (a token per 4
 * characters, at least one) and the audio's, at 20 tokens a second of it.
 */
export function speechUsage({ input, speed }: Pick<SimSpeechRequest, 'input' | 'speed'>) {
  const characters = [...input].length;
  const input_tokens = Math.max(1, Math.ceil(characters / 4));
  const output_tokens = Math.ceil(((tonePcm(characters, speed).length / 2) * 20) / SAMPLE_RATE);
  return { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens };
}

/** The events of an SSE speech (data-only, as OpenAI frames them): a speech.audio.delta per piece of audio, then speech.audio.done. */
export function speechEvents(request: SimSpeechRequest): string[] {
  const audio = speechAudio(request);
  const events: string[] = [];
  for (let offset = 0; offset < audio.length; offset += PIECE)
    events.push(JSON.stringify({ type: 'speech.audio.delta', audio: audio.subarray(offset, offset + PIECE).toString('base64') }));
  events.push(JSON.stringify({ type: 'speech.audio.done', usage: speechUsage(request) }));
  return events;
}

/** OpenAI's speech events: data-only frames, no `[DONE]` after speech.audio.done. */
const SPEECH_FRAMING: SseFraming = { ...OPENAI_FRAMING, end: '' };

/**
 * `POST /v1/audio/speech`, OpenAI's text to speech: the audio streamed in
 * pieces (chunked, `chunk_delay` between them, `fail_after` pieces then a
 * cut connection), after `latency`; with `stream_format: "sse"` (not for
 * tts-1 and tts-1-hd) the same pieces as speech.audio.delta events and a
 * speech.audio.done with the usage, the knobs as for chat's stream;
 * `status`, `retry_after` and `hang` as elsewhere; OpenAI's error bodies.
 * `raw_audio` makes it a server that ignores `stream_format` and always
 * answers raw audio, as local OpenAI-compatible TTS servers do.
 */
export async function handleSpeech(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const admitted = await admitOpenAIRequest(req, res, context, '');
  if (!admitted) return;
  const { knobs, signal } = admitted;
  const read = readSpeechRequest(admitted.body, admitted.model, knobs.rawAudio);
  if (!read.ok) return sendError(res, read.error);
  if (read.request.sse) return deliverStream(res, speechEvents(read.request), knobs, signal, SPEECH_FRAMING);
  const audio = speechAudio(read.request);
  res.writeHead(200, { 'content-type': FORMATS[read.request.format]!.type, 'transfer-encoding': 'chunked' });
  await pause(knobs.ttftMs, signal);
  for (let offset = 0, piece = 0; offset < audio.length; offset += PIECE, piece++) {
    if (knobs.failAfterChunks !== undefined && piece >= knobs.failAfterChunks) {
      res.socket?.destroySoon();
      return;
    }
    if (piece > 0) await pause(knobs.chunkDelayMs, signal);
    res.write(audio.subarray(offset, offset + PIECE));
  }
  res.end();
}

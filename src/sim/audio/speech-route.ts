import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitOpenAIRequest, type SimContext } from '../chat-route.js';
import { pause, sendError } from '../deliver.js';
import { type OpenAiError, SimErrors } from '../openai-errors.js';
import { silentMp3, tonePcm, wav } from './sim-audio.js';

const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'];
/** The formats OpenAI makes; the simulator renders these three (opus, aac and flac are refused, saying so). */
const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
const RENDERED: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', pcm: 'audio/pcm' };
const MAX_INPUT = 4_096;
/** Bytes per streamed piece of audio. */
const PIECE = 4_800;

interface SimSpeechRequest {
  input: string;
  format: string;
  speed: number;
}

/** Reads a body as OpenAI's POST /v1/audio/speech checks it. */
export function readSpeechRequest(
  body: unknown,
  model: string | undefined,
): { ok: true; request: SimSpeechRequest } | { ok: false; error: OpenAiError } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!model) return { ok: false, error: SimErrors.missingModel() };
  const { input, voice, response_format = 'mp3', speed = 1 } = fields;
  if (typeof input !== 'string' || input === '') return { ok: false, error: SimErrors.missingParameter('input') };
  if (input.length > MAX_INPUT)
    return {
      ok: false,
      error: SimErrors.invalidType('input', `a string of at most ${MAX_INPUT} characters`, `${input.length} characters`),
    };
  if (voice === undefined) return { ok: false, error: SimErrors.missingParameter('voice') };
  if (!VOICES.includes(voice as string)) return { ok: false, error: SimErrors.invalidValue('voice', String(voice), VOICES) };
  if (!FORMATS.includes(response_format as string))
    return { ok: false, error: SimErrors.invalidValue('response_format', String(response_format), FORMATS) };
  if (!RENDERED[response_format as string])
    return {
      ok: false,
      error: SimErrors.invalidValue('response_format', `${String(response_format)} (sim: not rendered)`, Object.keys(RENDERED)),
    };
  if (typeof speed !== 'number' || speed < 0.25 || speed > 4)
    return { ok: false, error: SimErrors.invalidValue('speed', String(speed), ['0.25 to 4.0']) };
  return { ok: true, request: { input, format: response_format as string, speed } };
}

/** The audio bytes of a request: a tone as long as the text takes to say (silence for mp3). */
export function speechAudio({ input, format, speed }: SimSpeechRequest): Buffer {
  const pcm = tonePcm([...input].length, speed);
  return format === 'wav' ? wav(pcm) : format === 'mp3' ? silentMp3(pcm.length / 2) : pcm;
}

/**
 * `POST /v1/audio/speech`, OpenAI's text to speech: the audio streamed in
 * pieces (chunked, `chunk_delay` between them, `fail_after` pieces then a
 * cut connection), after `latency`; `status`, `retry_after` and `hang` as
 * elsewhere; OpenAI's error bodies.
 */
export async function handleSpeech(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const admitted = await admitOpenAIRequest(req, res, context, '');
  if (!admitted) return;
  const { knobs, signal } = admitted;
  const read = readSpeechRequest(admitted.body, admitted.model);
  if (!read.ok) return sendError(res, read.error);
  const audio = speechAudio(read.request);
  res.writeHead(200, { 'content-type': RENDERED[read.request.format]!, 'transfer-encoding': 'chunked' });
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

import type { TranscriptionSegment, TranscriptionWord, UpstreamTranscription } from '../../protocol/transcription.js';
import { isRecord } from '../../util/is-record.js';

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

// verbose_json numbers its segments, diarized_json names them ("seg_0").
const readSegment = (item: unknown): TranscriptionSegment | undefined =>
  isRecord(item) &&
  (Number.isSafeInteger(item.id) || typeof item.id === 'string') &&
  isTime(item.start) &&
  isTime(item.end) &&
  typeof item.text === 'string'
    ? ({ ...item } as TranscriptionSegment)
    : undefined;

const readWord = (item: unknown): TranscriptionWord | undefined =>
  isRecord(item) && typeof item.word === 'string' && isTime(item.start) && isTime(item.end)
    ? { word: item.word, start: item.start, end: item.end }
    : undefined;

/** Every item read, or undefined when one is not the protocol's. */
function readAll<T>(items: unknown, read: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const values = items.map(read);
  return values.every((item) => item !== undefined) ? (values as T[]) : undefined;
}

/**
 * OpenAI's json, verbose_json or diarized_json transcription: its text, and its language,
 * segments and words when given; the duration and usage as they came (the
 * gateway checks them before billing). Undefined without a text.
 */
export function convertOpenAITranscriptionResponse(body: unknown): UpstreamTranscription | undefined {
  if (!isRecord(body) || typeof body.text !== 'string') return undefined;
  const segments = body.segments === undefined ? [] : readAll(body.segments, readSegment);
  const words = body.words === undefined ? [] : readAll(body.words, readWord);
  if (!segments || !words) return undefined;
  return {
    text: body.text,
    ...(typeof body.language === 'string' ? { language: body.language } : {}),
    ...(body.duration !== undefined ? { duration: body.duration } : {}),
    ...(body.segments !== undefined ? { segments } : {}),
    ...(body.words !== undefined ? { words } : {}),
    ...(Array.isArray(body.logprobs) ? { logprobs: body.logprobs } : {}),
    ...(body.usage !== undefined ? { usage: body.usage } : {}),
  };
}

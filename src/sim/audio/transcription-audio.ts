import type { TranscriptionSegment, TranscriptionWord, TranscriptTextSegment } from '../../protocol/transcription.js';
import { wavDuration } from '../../transcription/wav-duration.js';

/** Audio bytes a second the simulator assumes of a file that is not a WAV it can read: 128 kbit/s, a common MP3 rate. */
const ASSUMED_BYTES_PER_SECOND = 16_000;
/** The longest segment the simulator cuts its transcript into, in seconds. */
const SEGMENT_SECONDS = 10;

/** Seconds of audio in a file: a WAV's own, else its size at 128 kbit/s. */
export const audioDuration = (bytes: Buffer): number => wavDuration(bytes) ?? bytes.length / ASSUMED_BYTES_PER_SECOND;

const round = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * The simulator's transcript of audio this long: one sentence per ten
 * seconds (or part), each a segment, its words spread evenly over it. The
 * same audio always gives the same transcript.
 */
export function simTranscript(duration: number): { text: string; segments: TranscriptionSegment[]; words: TranscriptionWord[] } {
  const count = Math.max(1, Math.ceil(duration / SEGMENT_SECONDS));
  const segments: TranscriptionSegment[] = [];
  const words: TranscriptionWord[] = [];
  for (let id = 0; id < count; id++) {
    const start = id * SEGMENT_SECONDS;
    const end = Math.min(duration, start + SEGMENT_SECONDS);
    const text = ` Simulated speech, part ${id + 1} of ${count}.`;
    segments.push({
      id,
      seek: 0,
      start: round(start),
      end: round(end),
      text,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1,
      no_speech_prob: 0.01,
    });
    const spoken = text.trim().split(' ');
    const step = (end - start) / spoken.length;
    for (const [i, word] of spoken.entries())
      words.push({ word: word.replace(/[.,]$/, ''), start: round(start + i * step), end: round(start + (i + 1) * step) });
  }
  return {
    text: segments
      .map((s) => s.text)
      .join('')
      .trim(),
    segments,
    words,
  };
}

/** The pieces of a text as the simulator streams it: each word with the space before it. */
export const wordPieces = (text: string): string[] => text.match(/\s*\S+/g) ?? [];

/** OpenAI's logprobs of a piece of text: a token per word, each as sure as the simulator always is. */
export const pieceLogprobs = (piece: string) =>
  wordPieces(piece).map((token) => ({ token, logprob: -0.01, bytes: [...Buffer.from(token)] }));

/**
 * The transcript's segments as diarized_json gives them: `seg_<n>` ids, the
 * known speakers' names in turn when given, else A and B in turn.
 */
export const diarizedSegments = (segments: readonly TranscriptionSegment[], speakers: readonly string[]): TranscriptTextSegment[] => {
  const names = speakers.length > 0 ? speakers : ['A', 'B'];
  return segments.map((s, i) => ({
    type: 'transcript.text.segment',
    id: `seg_${i}`,
    start: s.start,
    end: s.end,
    speaker: names[i % names.length]!,
    text: s.text,
  }));
};

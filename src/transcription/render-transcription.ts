import type { TranscriptionFormat, TranscriptionSegment, UpstreamTranscription } from '../protocol/transcription.js';

/** A rendered answer: its content type and body. */
export interface RenderedTranscription {
  contentType: string;
  body: string;
}

/** A time as SubRip (00:01:02,345) or WebVTT (00:01:02.345) writes it. */
export function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** The cues of a transcript: its segments, or the whole text as one cue over the audio when the provider gave none. */
function cues(answer: UpstreamTranscription, seconds: number): Pick<TranscriptionSegment, 'start' | 'end' | 'text'>[] {
  if (answer.segments && answer.segments.length > 0) return answer.segments;
  return answer.text === '' ? [] : [{ start: 0, end: seconds, text: answer.text }];
}

const srt = (answer: UpstreamTranscription, seconds: number): string =>
  cues(answer, seconds)
    .map((cue, i) => `${i + 1}\n${timestamp(cue.start, ',')} --> ${timestamp(cue.end, ',')}\n${cue.text.trim()}\n`)
    .join('\n');

const vtt = (answer: UpstreamTranscription, seconds: number): string =>
  [
    'WEBVTT\n',
    ...cues(answer, seconds).map((cue) => `${timestamp(cue.start, '.')} --> ${timestamp(cue.end, '.')}\n${cue.text.trim()}\n`),
  ].join('\n');

/**
 * The answer in the format the client asked for, as OpenAI writes it: json
 * ({text, usage}, and the logprobs when asked for) and verbose_json (task, language, duration, text,
 * segments, words, usage) and diarized_json (task, duration, text, the
 * segments with their speakers, usage) as JSON; text, srt and vtt as plain text.
 * `seconds` is the billed duration; `usage` what the JSON formats report.
 */
export function renderTranscription(
  format: TranscriptionFormat,
  answer: UpstreamTranscription,
  seconds: number,
  usage: Record<string, unknown>,
): RenderedTranscription {
  switch (format) {
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: `${answer.text}\n` };
    case 'srt':
      return { contentType: 'text/plain; charset=utf-8', body: srt(answer, seconds) };
    case 'vtt':
      return { contentType: 'text/vtt; charset=utf-8', body: vtt(answer, seconds) };
    case 'verbose_json':
      return {
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({
          task: 'transcribe',
          language: answer.language ?? 'unknown',
          duration: seconds,
          text: answer.text,
          ...(answer.segments !== undefined ? { segments: answer.segments } : {}),
          ...(answer.words !== undefined ? { words: answer.words } : {}),
          usage,
        }),
      };
    case 'diarized_json':
      return {
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({ task: 'transcribe', duration: seconds, text: answer.text, segments: answer.segments ?? [], usage }),
      };
    case 'json':
      return {
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({ text: answer.text, ...(answer.logprobs ? { logprobs: answer.logprobs } : {}), usage }),
      };
  }
}

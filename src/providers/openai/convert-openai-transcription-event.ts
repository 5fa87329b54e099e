import type { TranscriptionStreamEvent } from '../../protocol/transcription.js';

/**
 * One event of OpenAI's streamed transcription as the canonical event:
 * `transcript.text.delta` with its `delta`, `transcript.text.segment` (a
 * diarized segment: id, times, speaker, text), `transcript.text.done` with its
 * `text` (and usage, kept as it came: it is checked before billing). Other
 * fields (logprobs, segment_id) pass as they are. Undefined for an event
 * that is neither, or lacks its text.
 */
export function convertOpenAITranscriptionEvent(event: Record<string, unknown>): TranscriptionStreamEvent | undefined {
  if (event.type === 'transcript.text.delta' && typeof event.delta === 'string') return { ...event, type: event.type, delta: event.delta };
  if (
    event.type === 'transcript.text.segment' &&
    typeof event.id === 'string' &&
    typeof event.start === 'number' &&
    typeof event.end === 'number' &&
    typeof event.speaker === 'string' &&
    typeof event.text === 'string'
  )
    return { type: event.type, id: event.id, start: event.start, end: event.end, speaker: event.speaker, text: event.text };
  if (event.type === 'transcript.text.done' && typeof event.text === 'string') return { ...event, type: event.type, text: event.text };
  return undefined;
}

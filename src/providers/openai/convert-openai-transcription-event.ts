import type { TranscriptionStreamEvent } from '../../protocol/transcription.js';

/**
 * One event of OpenAI's streamed transcription as the canonical event:
 * `transcript.text.delta` with its `delta`, `transcript.text.done` with its
 * `text` (and usage, kept as it came: it is checked before billing). Other
 * fields (logprobs, segment_id) pass as they are. Undefined for an event
 * that is neither, or lacks its text.
 */
export function convertOpenAITranscriptionEvent(event: Record<string, unknown>): TranscriptionStreamEvent | undefined {
  if (event.type === 'transcript.text.delta' && typeof event.delta === 'string') return { ...event, type: event.type, delta: event.delta };
  if (event.type === 'transcript.text.done' && typeof event.text === 'string') return { ...event, type: event.type, text: event.text };
  return undefined;
}

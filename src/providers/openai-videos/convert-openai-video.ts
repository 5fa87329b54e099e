import type { UpstreamVideoState } from '../../protocol/adapters.js';
import { isRecord } from '../../util/is-record.js';

/**
 * OpenAI's video object → the gateway's view of the job, or undefined when the
 * body is not one. OpenAI makes one video per job; `seconds` is a string.
 */
export function fromOpenAIVideo(body: unknown): UpstreamVideoState | undefined {
  if (!isRecord(body) || typeof body.id !== 'string') return undefined;
  const upstreamId = body.id;
  switch (body.status) {
    case 'queued':
    case 'in_progress':
      return { status: body.status, upstreamId };
    case 'completed': {
      const seconds = Number(body.seconds);
      return { status: 'completed', upstreamId, seconds: Number.isFinite(seconds) && seconds > 0 ? seconds : null, outputs: 1 };
    }
    case 'failed': {
      const message = isRecord(body.error) && typeof body.error.message === 'string' ? body.error.message : 'Video generation failed';
      return { status: 'failed', upstreamId, message };
    }
    default:
      return undefined;
  }
}

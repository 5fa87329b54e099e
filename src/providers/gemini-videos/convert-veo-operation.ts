import type { UpstreamVideoState } from '../../protocol/adapters.js';
import { isRecord } from '../../util/is-record.js';

/** google.rpc.Code CANCELLED: the operation was cancelled (operations.cancel). */
const CANCELLED = 1;

/** One generated video of a finished operation: a file to download, or (rarely) the bytes themselves. */
export type VeoSample = { uri: string } | { bytes: string; mimeType: string };

/**
 * The videos of a finished operation,
 * `response.generateVideoResponse.generatedSamples[].video`, in order.
 */
export function veoSamples(operation: unknown): VeoSample[] {
  const response = isRecord(operation) && isRecord(operation.response) ? operation.response.generateVideoResponse : undefined;
  const samples = isRecord(response) && Array.isArray(response.generatedSamples) ? response.generatedSamples : [];
  return samples.flatMap((sample): VeoSample[] => {
    const video = isRecord(sample) ? sample.video : undefined;
    if (!isRecord(video)) return [];
    if (typeof video.uri === 'string') return [{ uri: video.uri }];
    if (typeof video.encodedVideo === 'string')
      return [{ bytes: video.encodedVideo, mimeType: typeof video.encoding === 'string' ? video.encoding : 'video/mp4' }];
    return [];
  });
}

/** Why Responsible AI filters removed every video, as Google words it. */
function filteredReasons(operation: Record<string, unknown>): string[] {
  const response = isRecord(operation.response) ? operation.response.generateVideoResponse : undefined;
  const reasons = isRecord(response) && Array.isArray(response.raiMediaFilteredReasons) ? response.raiMediaFilteredReasons : [];
  return reasons.filter((r): r is string => typeof r === 'string');
}

/**
 * A Veo long-running operation → the gateway's view of the job, or
 * undefined when the body is not one. The operation's name is the job's
 * upstream id. Running until `done`; then an `error` (google.rpc.Status)
 * fails it, or cancels it for code CANCELLED; a response without videos
 * (all filtered by Responsible AI) fails it with Google's reasons.
 */
export function fromVeoOperation(body: unknown): UpstreamVideoState | undefined {
  if (!isRecord(body) || typeof body.name !== 'string') return undefined;
  const upstreamId = body.name;
  if (body.done !== true) return { status: 'in_progress', upstreamId };
  if (isRecord(body.error)) {
    const message = typeof body.error.message === 'string' ? body.error.message : 'Video generation failed';
    return { status: body.error.code === CANCELLED ? 'cancelled' : 'failed', upstreamId, message };
  }
  const outputs = veoSamples(body).length;
  if (outputs > 0) return { status: 'completed', upstreamId, seconds: null, outputs };
  const reasons = filteredReasons(body);
  return {
    status: 'failed',
    upstreamId,
    message: reasons.length ? `Veo filtered the video: ${reasons.join(' ')}` : 'Veo finished without a video',
  };
}

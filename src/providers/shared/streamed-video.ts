import type { UpstreamVideoContent } from '../../protocol/adapters.js';
import type { UpstreamResponse } from './send-upstream-request.js';

/**
 * A video download's body as it streams, with its type (MP4 unless said)
 * and length when given. The deadline covered reaching the bytes; a long
 * download is limited by the client's patience.
 */
export function streamedVideo(response: UpstreamResponse): UpstreamVideoContent {
  return streamedBody(response, 'video/mp4');
}

/** A binary answer's body as it streams (a video, speech), with its type (`fallbackType` unless said) and length when given. */
export function streamedBody(response: UpstreamResponse, fallbackType: string): UpstreamVideoContent {
  response.stopDeadline();
  const type = response.headers['content-type'];
  const length = Number(response.headers['content-length']);
  return {
    contentType: typeof type === 'string' ? type : fallbackType,
    contentLength: Number.isInteger(length) && length >= 0 ? length : null,
    body: response.body,
  };
}

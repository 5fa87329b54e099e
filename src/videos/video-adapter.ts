import type { Dispatcher } from 'undici';
import type { UpstreamTarget } from '../providers/types.js';
import type { VideoRequest } from './video-request.js';

/** What an upstream says of a job, in the gateway's words. */
export type UpstreamVideoState =
  | { status: 'queued' | 'in_progress'; upstreamId: string }
  | { status: 'completed'; upstreamId: string; seconds: number | null; outputs: number }
  | { status: 'failed'; upstreamId: string; message: string };

/** A video's bytes as the upstream sends them: read as a stream, never buffered whole. */
export interface UpstreamVideoContent {
  contentType: string;
  contentLength: number | null;
  body: AsyncIterable<Uint8Array> & NodeJS.ReadableStream;
}

export interface VideoAdapterContext {
  signal: AbortSignal;
  dispatcher?: Dispatcher;
}

/** What a protocol can make, shown by GET /videos/models. */
export interface VideoOptions {
  resolutions: readonly string[];
  aspectRatios: readonly string[];
  durations: readonly number[];
  sizes: readonly string[];
  frameImages: readonly string[];
  generateAudio: boolean;
  seed: boolean;
}

/** One provider protocol for video jobs; rejects with UpstreamError. */
export interface VideoAdapter {
  readonly kind: string;
  readonly options: VideoOptions;
  create(request: VideoRequest, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoState>;
  retrieve(upstreamId: string, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoState>;
  content(upstreamId: string, index: number, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoContent>;
}

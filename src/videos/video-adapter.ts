import type { Dispatcher } from 'undici';
import type { UpstreamTarget } from '../providers/types.js';
import type { UpstreamVideoRequest, VideoRequest } from './video-request.js';

/** What an upstream says of a job, in the gateway's words. */
export type UpstreamVideoState =
  | { status: 'queued' | 'in_progress'; upstreamId: string }
  | { status: 'completed'; upstreamId: string; seconds: number | null; outputs: number }
  | { status: 'failed' | 'cancelled'; upstreamId: string; message: string };

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

/** What a model can make through its protocol, shown by GET /videos/models and checked before a job is stored. */
export interface VideoOptions {
  resolutions: readonly string[];
  aspectRatios: readonly string[];
  durations: readonly number[];
  /** Seconds made (and billed) when the request names no duration and the upstream does not say. */
  defaultDuration: number;
  sizes: readonly string[];
  frameImages: readonly ('first_frame' | 'last_frame')[];
  /** How many image input_references one request may carry; 0 when the protocol takes none. */
  referenceImages: number;
  generateAudio: boolean;
  seed: boolean;
  /** Keys of `provider.options[slug]` passed on to the upstream request. */
  passthrough: readonly string[];
}

/** One provider protocol for video jobs; rejects with UpstreamError. */
export interface VideoAdapter {
  readonly kind: string;
  /**
   * The reference's provider slug for this protocol's own service
   * ("openai", "google-ai-studio"): `provider.options` keyed by it reach a
   * provider of this kind, as well as options keyed by the provider's id.
   */
  readonly referenceSlug: string;
  options(upstreamModel: string): VideoOptions;
  /** Why this protocol cannot carry the request (a rule of its own beyond `options`), for a 400; undefined when it can. */
  refusal(request: VideoRequest, upstreamModel: string): string | undefined;
  create(request: UpstreamVideoRequest, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoState>;
  retrieve(upstreamId: string, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoState>;
  content(upstreamId: string, index: number, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamVideoContent>;
}

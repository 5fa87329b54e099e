/** An image of the request, as the reference's ContentPartImage: a URL or a data URL. */
export interface VideoImage {
  type: 'image_url';
  image_url: { url: string };
}

/** The reference's FrameImage: an image that opens or closes the video. */
export interface FrameImage extends VideoImage {
  frame_type: 'first_frame' | 'last_frame';
}

/** The reference's InputReference: an image, audio or video that guides generation (only images are used). */
export type InputReference =
  | VideoImage
  | { type: 'audio_url'; audio_url: { url: string } }
  | { type: 'video_url'; video_url: { url: string } };

/** The fields of POST /videos (the reference's VideoGenerationRequest) the gateway acts on, as validated. */
export interface VideoRequest {
  model: string;
  prompt?: string;
  duration?: number;
  resolution?: string;
  aspect_ratio?: string;
  size?: string;
  seed?: number;
  generate_audio?: boolean;
  frame_images?: FrameImage[];
  input_references?: InputReference[];
  /** Fields of the reference this gateway does not act on: a request with one is refused rather than half done. */
  callback_url?: string;
  creativity?: number;
  upscale_factor?: number;
  previous_job_id?: string;
  /** Routing preferences (as for image generation) and `options`: provider-specific fields keyed by provider slug. */
  provider?: Record<string, unknown> & { options?: Record<string, Record<string, unknown>> };
}

/**
 * What an adapter sends upstream: the request without its routing
 * preferences, with the provider-specific options of the serving provider
 * that its protocol accepts.
 */
export interface UpstreamVideoRequest extends Omit<VideoRequest, 'provider'> {
  passthrough: Readonly<Record<string, unknown>>;
}

export const frameImage = (request: Pick<VideoRequest, 'frame_images'>, type: FrameImage['frame_type']): string | undefined =>
  request.frame_images?.find((f) => f.frame_type === type)?.image_url.url;

/** The image URLs of input_references; audio and video references are for providers that take them, none here. */
export const referenceImages = (request: Pick<VideoRequest, 'input_references'>): string[] =>
  (request.input_references ?? []).flatMap((r) => (r.type === 'image_url' ? [r.image_url.url] : []));

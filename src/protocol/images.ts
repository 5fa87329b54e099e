/**
 * The canonical image generation request and answer (the reference's POST
 * /images, and OpenAI's POST /images/generations). Adapters translate them
 * to and from each provider's protocol.
 */

/** A validated image request: the reference's fields, and OpenAI's that its own route takes. */
export interface ImageRequest {
  model: string;
  prompt: string;
  /** Images to make, 1–10 (1 when absent). */
  n?: number;
  /** Pixels ("1024x1536") or "auto"; the reference's aspect_ratio is turned into one by the adapter. */
  size?: string;
  /** The reference's normalized aspect ratio ("3:2"), for providers that take sizes. */
  aspect_ratio?: string;
  quality?: string;
  background?: string;
  output_format?: string;
  output_compression?: number;
  /** OpenAI's style (DALL·E 3). */
  style?: string;
  /** Partial images (0–3) a streamed answer sends before each image, where the provider makes them. */
  partial_images?: number;
  /** How images come back: base64 bytes, or URLs where the provider hosts them. */
  response_format: 'b64_json' | 'url';
  provider?: Record<string, unknown> | null;
  user?: string;
  /** Images to edit, or to take as references (image-to-image): sent to the provider's edit API. */
  images?: InputImage[];
  /** OpenAI's edit mask: where the first image is to change. */
  mask?: InputImage;
  /** OpenAI's `input_fidelity` of an edit: how closely the input images' features are kept. */
  input_fidelity?: string;
}

/** An image sent with a request: its bytes, a file name and its media type. */
export interface InputImage {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** One image as the provider answered it: its bytes in base64, or a URL. */
export interface GeneratedImage {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
}

/** An adapter's answer: the images, the format they are in, and the provider's own token usage when it reports one. */
export interface UpstreamImages {
  created?: number;
  images: GeneratedImage[];
  /** The format of the bytes ("png"), when the provider says. */
  outputFormat?: string;
  usage?: ImageTokenUsage;
}

/** The token usage a provider reports for images. */
export interface ImageTokenUsage {
  input_tokens?: number;
  /** Of the input tokens, those of the images sent to be edited. */
  input_image_tokens?: number;
  output_tokens?: number;
}

/**
 * One event of a streamed image answer: a partial image (a coarser rendering
 * on the way), or an image completed, with the provider's usage for it when
 * it reports one.
 */
export type ImageStreamEvent =
  | { type: 'partial'; b64_json: string; partialImageIndex: number }
  | { type: 'completed'; b64_json: string; created?: number; outputFormat?: string; usage?: ImageTokenUsage };

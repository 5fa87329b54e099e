/** The fields of POST /videos (the reference's VideoGenerationRequest) the gateway acts on. */
export interface VideoRequest {
  model: string;
  prompt?: string;
  duration?: number;
  resolution?: string;
  aspect_ratio?: string;
  size?: string;
  seed?: number;
  generate_audio?: boolean;
  frame_images?: unknown[];
  input_references?: unknown[];
}

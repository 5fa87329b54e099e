import { Type, type Static } from 'typebox';

const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9', '9:21'];
const RESOLUTIONS = ['480p', '720p', '768p', '1080p', '1K', '2K', '4K'];

/**
 * The body of POST /videos (the reference's VideoGenerationRequest). Unknown
 * top-level fields are tolerated, as for chat and rerank.
 */
export const VideoRequestBody = Type.Object({
  model: Type.String({ minLength: 1 }),
  prompt: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Integer({ minimum: 1 })),
  aspect_ratio: Type.Optional(Type.Enum(ASPECT_RATIOS)),
  resolution: Type.Optional(Type.Enum(RESOLUTIONS)),
  size: Type.Optional(Type.String({ pattern: '^[0-9]+x[0-9]+$' })),
  seed: Type.Optional(Type.Integer()),
  generate_audio: Type.Optional(Type.Boolean()),
  frame_images: Type.Optional(Type.Array(Type.Object({ frame_type: Type.Enum(['first_frame', 'last_frame']) }))),
  input_references: Type.Optional(Type.Array(Type.Object({}))),
  callback_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https://' })),
  provider: Type.Optional(Type.Object({ options: Type.Optional(Type.Object({})) })),
});
export type VideoRequestBody = Static<typeof VideoRequestBody>;

export const JobParams = Type.Object({ jobId: Type.String({ minLength: 1 }) });

export const ContentQuery = Type.Object({
  index: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()])),
});

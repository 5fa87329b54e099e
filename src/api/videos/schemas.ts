import { type Static, Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-helpers.js';
import { ProviderSlugs, ProviderSort } from '../chat/provider-preferences-schema.js';
import { DiscriminatedUnion } from '../chat/union-schemas.js';

const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9', '9:21'] as const;
const RESOLUTIONS = ['480p', '720p', '768p', '1080p', '1K', '2K', '4K'] as const;

const Url = Type.Object({ url: Type.String({ minLength: 1 }) });

/** The reference's FrameImage: a ContentPartImage with the frame it stands for. */
const FrameImage = Type.Object({
  type: StringEnum(['image_url']),
  image_url: Url,
  frame_type: StringEnum(['first_frame', 'last_frame']),
});

/** The reference's InputReference: an image, audio or video content part. */
const InputReference = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('image_url'), image_url: Url }),
  Type.Object({ type: Type.Literal('audio_url'), audio_url: Url }),
  Type.Object({ type: Type.Literal('video_url'), video_url: Url }),
]);

/**
 * `provider`: the reference gives video requests `options` (provider-specific
 * fields keyed by provider slug); the routing preferences are those its
 * image generation takes. Unknown keys are refused, as in chat's.
 */
const VideoProviderPreferences = Type.Object(
  {
    allow_fallbacks: Type.Optional(Nullable(Type.Boolean())),
    only: Type.Optional(ProviderSlugs),
    ignore: Type.Optional(ProviderSlugs),
    order: Type.Optional(ProviderSlugs),
    sort: Type.Optional(ProviderSort),
    options: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
  },
  { additionalProperties: false },
);

/**
 * The body of POST /videos (the reference's VideoGenerationRequest, plus
 * the fields @openrouter/sdk sends). Unknown top-level fields are
 * tolerated, as for chat and rerank.
 */
export const VideoRequestBody = Type.Object({
  model: Type.String({ minLength: 1 }),
  prompt: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Integer({ minimum: 1 })),
  aspect_ratio: Type.Optional(StringEnum(ASPECT_RATIOS)),
  resolution: Type.Optional(StringEnum(RESOLUTIONS)),
  size: Type.Optional(Type.String({ pattern: '^[0-9]+x[0-9]+$' })),
  seed: Type.Optional(Type.Integer()),
  generate_audio: Type.Optional(Type.Boolean()),
  frame_images: Type.Optional(Type.Array(FrameImage)),
  input_references: Type.Optional(Type.Array(InputReference)),
  callback_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https://' })),
  creativity: Type.Optional(Type.Integer()),
  upscale_factor: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  previous_job_id: Type.Optional(Type.String({ minLength: 1 })),
  provider: Type.Optional(VideoProviderPreferences),
  // Observability fields of the SDK's request: never sent upstream.
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  user: Type.Optional(Type.String()),
  trace: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type VideoRequestBody = Static<typeof VideoRequestBody>;

export const JobParams = Type.Object({ jobId: Type.String({ minLength: 1 }) });

export const ContentQuery = Type.Object({
  index: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()])),
});

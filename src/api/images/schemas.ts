import { type Static, Type } from 'typebox';
import { INPUT_IMAGE_LIMITS } from '../../images/read-input-references.js';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';

/** The longest prompt taken (OpenAI's GPT image models take 32,000 characters). */
export const MAX_IMAGE_PROMPT = 32_000;

const ASPECT_RATIOS = [
  '1:1',
  '1:2',
  '1:4',
  '1:8',
  '2:1',
  '2:3',
  '3:2',
  '3:4',
  '4:1',
  '4:3',
  '4:5',
  '5:4',
  '8:1',
  '9:16',
  '16:9',
  '9:19.5',
  '19.5:9',
  '9:20',
  '20:9',
  '9:21',
  '21:9',
  'auto',
];
const Size = Type.String({ pattern: '^(auto|\\d{2,5}x\\d{2,5}|512|1K|2K|4K)$' });

/** One reference image of POST /images (the reference's ContentPartImage). */
export const ImageReference = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Object({ url: Type.String({ minLength: 1 }), detail: Type.Optional(Type.String()) }),
});

/** What both image routes take alike; without a model, the key's workspace's default image model is used. */
const common = {
  model: Type.Optional(Type.String({ minLength: 1 })),
  prompt: Type.String({ minLength: 1, maxLength: MAX_IMAGE_PROMPT }),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  size: Type.Optional(Size),
  quality: Type.Optional(Type.Enum(['auto', 'low', 'medium', 'high', 'standard', 'hd'])),
  background: Type.Optional(Type.Enum(['auto', 'transparent', 'opaque'])),
  output_format: Type.Optional(Type.Enum(['png', 'jpeg', 'webp'])),
  output_compression: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  provider: Type.Optional(ProviderPreferences),
  user: Type.Optional(Type.String()),
  stream: Type.Optional(Type.Boolean()),
  /** OpenAI's: the partial images a stream sends before each image. */
  partial_images: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
};

/**
 * The body of POST /images (the reference's ImageGenerationRequest).
 * `resolution` and `seed` are taken and ignored by protocols without such a
 * knob (OpenAI's); `stream` is answered buffered when no endpoint of the
 * model streams natively, as the reference answers for such providers.
 */
export const ImagesRequestBody = Type.Object({
  ...common,
  aspect_ratio: Type.Optional(Type.Enum(ASPECT_RATIOS)),
  resolution: Type.Optional(Type.Enum(['512', '1K', '2K', '4K'])),
  seed: Type.Optional(Type.Integer()),
  input_references: Type.Optional(Type.Array(ImageReference, { maxItems: INPUT_IMAGE_LIMITS.images })),
});

/** The body of POST /images/generations (OpenAI's, which the openai client's images.generate posts). */
export const ImageGenerationsRequestBody = Type.Object({
  ...common,
  response_format: Type.Optional(Type.Enum(['url', 'b64_json'])),
  style: Type.Optional(Type.Enum(['vivid', 'natural'])),
  moderation: Type.Optional(Type.Enum(['auto', 'low'])),
});

export type ImagesRequestBody = Static<typeof ImagesRequestBody>;
export type ImageGenerationsRequestBody = Static<typeof ImageGenerationsRequestBody>;

/**
 * The text fields of POST /images/edits (OpenAI's multipart form, which the
 * openai client's images.edit posts); its files (`image`, `image[]`, `mask`)
 * are read apart.
 */
export const ImageEditFields = Type.Object({
  ...common,
  response_format: Type.Optional(Type.Enum(['url', 'b64_json'])),
  input_fidelity: Type.Optional(Type.Enum(['high', 'low'])),
});

export type ImageEditFields = Static<typeof ImageEditFields>;

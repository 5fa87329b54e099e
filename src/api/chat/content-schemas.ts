import { type TSchema, Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-helpers.js';
import { DiscriminatedUnion, TypeUnion } from './union-schemas.js';

/** Anthropic-style cache breakpoint: at the top level and on text parts. */
export const CacheControl = Type.Object({
  type: Type.Literal('ephemeral'),
  ttl: Type.Optional(StringEnum(['5m', '1h'])),
});

const TextPart = Type.Object({
  type: Type.Literal('text'),
  text: Type.String(),
  cache_control: Type.Optional(CacheControl),
  prompt_cache_breakpoint: Type.Optional(Nullable(Type.Object({ mode: Type.Literal('explicit') }))),
});

const ImagePart = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Object({
    url: Type.String(),
    detail: Type.Optional(StringEnum(['auto', 'low', 'high'])),
  }),
});

const InputAudioPart = Type.Object({
  type: Type.Literal('input_audio'),
  input_audio: Type.Object({ data: Type.String(), format: Type.String() }),
});

const FilePart = Type.Object({
  type: Type.Literal('file'),
  file: Type.Object({
    filename: Type.Optional(Type.String()),
    file_data: Type.Optional(Type.String()),
    file_id: Type.Optional(Type.String()),
  }),
});

/** A part of user content, told apart by `type`. */
export const ContentPart = DiscriminatedUnion('type', [TextPart, ImagePart, InputAudioPart, FilePart]);

/** A part of text-only content; `type` is checked first, so an image part is named as such. */
export const TextOnlyPart = DiscriminatedUnion('type', [TextPart]);

/** Message content: a plain string, or an array of parts of the given shape. */
export const Content = <T extends TSchema>(part: T) => TypeUnion([Type.String(), Type.Array(part)]);

/** Content that may also be JSON null (an assistant turn that only calls tools). */
export const NullableContent = <T extends TSchema>(part: T) => TypeUnion([Type.String(), Type.Array(part), Type.Null()]);

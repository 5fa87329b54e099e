import { type Static, Type } from 'typebox';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';

/** The most input items one request embeds (OpenAI's limit, which its clients batch to). */
export const MAX_EMBEDDING_INPUTS = 2_048;

const Text = Type.String({ minLength: 1 });
const Tokens = Type.Array(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), { minItems: 1 });

/**
 * The body of POST /embeddings (the reference's): input as a string, an
 * array of strings, a token array or an array of token arrays. Unknown
 * top-level fields are tolerated, as for chat.
 */
export const EmbeddingsRequestBody = Type.Object({
  model: Type.String({ minLength: 1 }),
  input: Type.Union([Text, Type.Array(Text, { minItems: 1 }), Tokens, Type.Array(Tokens, { minItems: 1 })], {
    description: 'Text or tokens to embed: a string, an array of strings, an array of token ids, or an array of such arrays',
  }),
  encoding_format: Type.Optional(Type.Enum(['float', 'base64'])),
  dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 65_536 })),
  input_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  provider: Type.Optional(ProviderPreferences),
  user: Type.Optional(Type.String()),
});

export type EmbeddingsRequestBody = Static<typeof EmbeddingsRequestBody>;

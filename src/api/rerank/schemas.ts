import { type Static, Type } from 'typebox';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';

/**
 * The body of POST /rerank (spec 4.4, limits in 8). Unknown top-level fields
 * are tolerated, as for chat: @openrouter/sdk sends session_id and trace,
 * which the gateway does not use for a rerank.
 */
export const RerankRequestBody = Type.Object({
  documents: Type.Array(Type.String(), { minItems: 1 }),
  model: Type.String({ minLength: 1 }),
  query: Type.String(),
  provider: Type.Optional(ProviderPreferences),
  top_n: Type.Optional(Type.Integer({ minimum: 1 })),
  user: Type.Optional(Type.String()),
});

export type RerankRequestBody = Static<typeof RerankRequestBody>;

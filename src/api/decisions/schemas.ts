import { type Static, Type } from 'typebox';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';

/**
 * The body of POST /api/alpha/decisions. `questions` is checked question by
 * question (read-questions.ts), so that an error names the question and the
 * field, which a schema union's errors would not. Unknown top-level fields
 * are tolerated, as for rerank.
 */
export const DecisionsRequestBody = Type.Object({
  model: Type.String({ minLength: 1 }),
  state: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown())]),
  questions: Type.Record(Type.String(), Type.Unknown()),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  user: Type.Optional(Type.String()),
  provider: Type.Optional(ProviderPreferences),
});

export type DecisionsRequestBody = Static<typeof DecisionsRequestBody>;

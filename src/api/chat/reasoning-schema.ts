import { Type } from 'typebox';
import { Nullable, NullableStringEnum } from '../../http/schema-helpers.js';

const REASONING_EFFORTS = ['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'] as const;

/** `reasoning.effort`, and the top-level shorthand `reasoning_effort`. */
export const ReasoningEffort = NullableStringEnum(REASONING_EFFORTS);

/** A token limit: a positive whole number, or null for "not set". */
export const TokenLimit = Nullable(Type.Integer({ minimum: 1 }));

export const Reasoning = Type.Object({
  effort: Type.Optional(ReasoningEffort),
  summary: Type.Optional(NullableStringEnum(['auto', 'concise', 'detailed'])),
  max_tokens: Type.Optional(TokenLimit),
  exclude: Type.Optional(Type.Boolean()),
  enabled: Type.Optional(Type.Boolean()),
});

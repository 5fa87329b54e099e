import { Type } from 'typebox';
import { CODE_VERIFIER_PATTERN } from '../../accounts/pkce.js';
import { Nullable, NullableStringEnum, StringEnum } from '../../http/schema-helpers.js';
import { LIMIT_RESETS, Money } from '../keys/schemas.js';

export const CODE_CHALLENGE_METHODS = ['S256', 'plain'] as const;

export const CreateAuthCodeBody = Type.Object({
  callback_url: Type.String({ format: 'uri' }),
  // S256 challenges are 43 base64url characters; plain ones are verifiers (43–128 unreserved characters).
  code_challenge: Type.Optional(Type.String({ pattern: CODE_VERIFIER_PATTERN })),
  code_challenge_method: Type.Optional(StringEnum(CODE_CHALLENGE_METHODS)),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  key_label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  limit: Type.Optional(Money),
  usage_limit_type: Type.Optional(StringEnum(LIMIT_RESETS)),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
});

export const ExchangeAuthCodeBody = Type.Object({
  code: Type.String({ minLength: 1 }),
  code_verifier: Type.Optional(Type.String()),
  code_challenge_method: Type.Optional(NullableStringEnum(CODE_CHALLENGE_METHODS)),
});

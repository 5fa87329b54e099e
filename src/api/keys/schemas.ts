import { Type } from 'typebox';
import { Nullable, NullableStringEnum, PageOffset } from '../../http/schema-helpers.js';

export const LIMIT_RESETS = ['daily', 'weekly', 'monthly'] as const;

export const Money = Type.Number({ minimum: 0 });

export const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  creator_user_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  include_byok_in_limit: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Nullable(Money)),
  limit_reset: Type.Optional(NullableStringEnum(LIMIT_RESETS)),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
  external: Type.Optional(
    Type.Object({
      // A partner-supplied key: stored as its SHA-256 like any other, never returned by reads.
      api_key: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
      user: Type.String({ minLength: 1, maxLength: 256 }),
    }),
  ),
});

export const UpdateKeyBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  /** Reassigns the key to another active member (a key whose creator left is refused by interns, spec 5.5). */
  creator_user_id: Type.Optional(Type.String({ minLength: 1 })),
  disabled: Type.Optional(Type.Boolean()),
  /** Beyond the reference: a new expiry (in the future), or null for none. */
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  include_byok_in_limit: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Nullable(Money)),
  limit_reset: Type.Optional(NullableStringEnum(LIMIT_RESETS)),
  /** Beyond the reference: moves the key to another workspace of the organization. */
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
});

export const KeyHashParams = Type.Object({
  hash: Type.String({ minLength: 1 }),
});

export const ListKeysQuery = Type.Object({
  include_disabled: Type.Optional(Type.Boolean()),
  offset: Type.Optional(PageOffset),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
});

/** Keys a page of `GET /keys` holds. */
export const KEYS_PAGE_SIZE = 100;

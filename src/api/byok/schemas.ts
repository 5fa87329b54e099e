import { Type } from 'typebox';
import { Nullable, PageQuery } from '../../http/schema-helpers.js';

/** A provider key is a token, not a document: longer than this is a mistake (a pasted file), refused by name. */
export const MAX_KEY_LENGTH = 8192;

const List = (maxLength: number) =>
  Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength }), { minItems: 1, maxItems: 100 })));

/** What a create and an update both take (the reference's CreateBYOKKeyRequest, and sort_order, a gateway extension). */
const Fields = {
  key: Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH }),
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  allowed_api_key_hashes: List(128),
  allowed_models: List(200),
  allowed_user_ids: List(100),
  disabled: Type.Optional(Type.Boolean()),
  is_fallback: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
};

/**
 * The reference's CreateBYOKKeyRequest. `workspace_id` omitted is the
 * caller's workspace (a scoped key's own, else the default); null makes the
 * credential the organization's, for every workspace (an organization-wide
 * provider key, which only an organization management key may add).
 */
export const CreateByokBody = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 100 }),
    ...Fields,
    workspace_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  },
  { additionalProperties: false },
);

/** The reference's UpdateBYOKKeyRequest: the fields given change; `key` rotates the credential in place. */
export const UpdateByokBody = Type.Object({ ...Fields, key: Type.Optional(Fields.key) }, { additionalProperties: false });

export const ByokParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const ListByokQuery = Type.Object({
  ...PageQuery(100).properties,
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const BYOK_PAGE_SIZE = 50;

import { Type } from 'typebox';
import { GuardrailRuleFields } from '../../guardrails/guardrail-rules.js';
import { Nullable, NullableStringEnum, PageQuery } from '../../http/schema-helpers.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Nullable(Type.String({ maxLength: 1000 }));
const Budget = {
  limit_usd: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  reset_interval: Type.Optional(NullableStringEnum(['daily', 'weekly', 'monthly'])),
  include_byok_in_budgets: Type.Optional(Type.Boolean()),
};

/** The reference's CreateGuardrailRequest; a field it does not define is refused by name. */
export const CreateGuardrailBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
    ...Budget,
    ...GuardrailRuleFields,
  },
  { additionalProperties: false },
);

/** The reference's UpdateGuardrailRequest: named fields change, collections are replaced whole. */
export const UpdateGuardrailBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    ...Budget,
    ...GuardrailRuleFields,
  },
  { additionalProperties: false },
);

export const GuardrailParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ListGuardrailsQuery = Type.Object({
  ...PageQuery(100).properties,
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
});

export const ListAssignmentsQuery = PageQuery(100);

const Ids = (description: string) => Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000, description });

export const KeyHashesBody = Type.Object({ key_hashes: Ids('API key hashes') });
export const MemberIdsBody = Type.Object({ member_user_ids: Ids('member user ids') });
export const WorkspaceIdsBody = Type.Object({ workspace_ids: Ids('workspace ids') });

import { type Static, Type } from 'typebox';
import { Nullable, StringEnum } from '../http/schema-helpers.js';

/** The reference's ContentFilterAction: stop the request, replace the match with its label, or only record it. */
export const CONTENT_FILTER_ACTIONS = ['block', 'redact', 'flag'] as const;
export type ContentFilterAction = (typeof CONTENT_FILTER_ACTIONS)[number];

/**
 * The reference's builtin slugs this gateway detects. `person-name`,
 * `address` and `secrets` need a trained recogniser, not a pattern; they are
 * refused by name rather than accepted and silently never matched.
 */
export const BUILTIN_SLUGS = ['email', 'phone', 'ssn', 'credit-card', 'ip-address', 'regex-prompt-injection'] as const;
export type BuiltinSlug = (typeof BUILTIN_SLUGS)[number];

const ModelIds = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 1024 }));
const ProviderIds = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 256 }));
const Flag = Nullable(Type.Boolean());
const TokenCeiling = Nullable(Type.Integer({ minimum: 1 }));

export const ContentFilter = Type.Object(
  {
    pattern: Type.String({ minLength: 1, maxLength: 1000 }),
    action: StringEnum(CONTENT_FILTER_ACTIONS),
    label: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
);

export const BuiltinFilter = Type.Object(
  {
    slug: StringEnum(BUILTIN_SLUGS),
    action: StringEnum(CONTENT_FILTER_ACTIONS),
    /** Deprecated in the reference: labels are system-assigned; accepted and ignored. */
    label: Type.Optional(Type.String({ maxLength: 100 })),
    scan_scope: Type.Optional(StringEnum(['user_only', 'all_messages'])),
  },
  { additionalProperties: false },
);

/**
 * What a guardrail enforces: the reference's rule fields, plus three of this
 * gateway's own (`blocked_keywords`, `max_prompt_tokens`,
 * `max_completion_tokens`). Every field is optional and nullable; null means
 * "no rule".
 */
export const GuardrailRuleFields = {
  allowed_models: Type.Optional(ModelIds),
  ignored_models: Type.Optional(ModelIds),
  allowed_providers: Type.Optional(ProviderIds),
  ignored_providers: Type.Optional(ProviderIds),
  content_filters: Type.Optional(Nullable(Type.Array(ContentFilter, { maxItems: 100 }))),
  content_filter_builtins: Type.Optional(Nullable(Type.Array(BuiltinFilter, { maxItems: BUILTIN_SLUGS.length * 2 }))),
  enforce_zdr: Type.Optional(Flag),
  enforce_zdr_anthropic: Type.Optional(Flag),
  enforce_zdr_google: Type.Optional(Flag),
  enforce_zdr_openai: Type.Optional(Flag),
  enforce_zdr_xai: Type.Optional(Flag),
  enforce_zdr_other: Type.Optional(Flag),
  enable_free_model_publication: Type.Optional(Flag),
  enable_free_model_training: Type.Optional(Flag),
  enable_paid_model_training: Type.Optional(Flag),
  blocked_keywords: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 }))),
  max_prompt_tokens: Type.Optional(TokenCeiling),
  max_completion_tokens: Type.Optional(TokenCeiling),
};

const RulesObject = Type.Object(GuardrailRuleFields);
export type GuardrailRuleInput = Static<typeof RulesObject>;
export type ContentFilter = Static<typeof ContentFilter>;
export type BuiltinFilter = Static<typeof BuiltinFilter>;

/** The per-vendor zero-data-retention switches, by the model-id prefix they govern. */
export const ZDR_FIELDS = {
  anthropic: 'enforce_zdr_anthropic',
  google: 'enforce_zdr_google',
  openai: 'enforce_zdr_openai',
  'x-ai': 'enforce_zdr_xai',
} as const;
export type ZdrField = (typeof ZDR_FIELDS)[keyof typeof ZDR_FIELDS] | 'enforce_zdr_other';

/** Stored rules: every field present, null when unset. */
export type GuardrailRules = { [K in keyof GuardrailRuleInput]-?: Exclude<GuardrailRuleInput[K], undefined> };

export const RULE_FIELD_NAMES = Object.keys(GuardrailRuleFields) as (keyof GuardrailRules)[];

/**
 * The rules after an update: fields the update names replace the stored ones
 * (collections whole, as the reference says), the others stay. The
 * deprecated `enforce_zdr` is copied into every per-vendor field the same
 * input does not set, then stored as null.
 */
export function applyRuleInput(current: GuardrailRules | undefined, input: GuardrailRuleInput): GuardrailRules {
  const rules = Object.fromEntries(
    RULE_FIELD_NAMES.map((name) => [name, input[name] !== undefined ? input[name] : (current?.[name] ?? null)]),
  ) as GuardrailRules;
  if (input.enforce_zdr != null) {
    for (const field of [...Object.values(ZDR_FIELDS), 'enforce_zdr_other'] as const)
      if (input[field] === undefined) rules[field] = input.enforce_zdr;
  }
  rules.enforce_zdr = null;
  // Labels of builtin filters are system-assigned: a given one is ignored, as the reference says.
  rules.content_filter_builtins = rules.content_filter_builtins?.map(({ label: _ignored, ...builtin }) => builtin) ?? null;
  return rules;
}

import { Type } from 'typebox';
import { Nullable, PageLimit, StringEnum } from '../../http/schema-helpers.js';

export const INTERN_STATUSES = ['queued', 'provisioning', 'running', 'failed', 'stopped', 'destroying', 'destroy_failed'] as const;
export const INTERN_TOOLS = ['http_fetch', 'notify', 'ask_question'] as const;

/** Spec 8: an invoke's body, and (for consistency) every intern request body, is at most 1 MiB. */
export const INTERN_BODY_LIMIT = 1_048_576;

const Name = Type.String({ minLength: 1, maxLength: 256 });
const Text = Type.String({ maxLength: 32_000 });
const Model = Type.String({ minLength: 1, maxLength: 256 });
const Domain = Type.String({ minLength: 1, maxLength: 253, pattern: '^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$' });

/** Our settings of an intern, beyond the SDK's fields (see interns/intern-settings.ts for defaults). */
const settingFields = {
  allowed_domains: Type.Optional(Type.Array(Domain, { maxItems: 256 })),
  webhook_url: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' }))),
  fallback_answer: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
  deadline_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  interaction_deadline_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  max_open_questions: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  turns_per_minute: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000 }))),
  tools: Type.Optional(Type.Array(StringEnum(INTERN_TOOLS), { maxItems: INTERN_TOOLS.length, uniqueItems: true })),
};
export const SETTING_NAMES = Object.keys(settingFields) as (keyof typeof settingFields)[];

export const CreateInternBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Nullable(Text)),
    instructions: Type.Optional(Nullable(Text)),
    model: Type.Optional(Nullable(Model)),
    workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    provision: Type.Optional(Type.Boolean()),
    vault_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 256 }))),
    ...settingFields,
  },
  { additionalProperties: false },
);

export const UpdateInternBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Nullable(Text)),
    instructions: Type.Optional(Nullable(Text)),
    model: Type.Optional(Nullable(Model)),
    vault_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 256 }))),
    ...settingFields,
  },
  { additionalProperties: false },
);

export const InternParams = Type.Object({ internId: Type.String({ minLength: 1, maxLength: 256 }) });

export const ListInternsQuery = Type.Object({
  limit: Type.Optional(PageLimit(500)),
  /** Comma-separated statuses, at most 8 (the SDK's listinterns). */
  status: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
});

export const InvokeBody = Type.Object({
  input: Type.String({ minLength: 1, maxLength: 32_000 }),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
});

export const SessionParams = Type.Object({
  internId: Type.String({ minLength: 1, maxLength: 256 }),
  session_id: Type.String({ minLength: 1, maxLength: 256 }),
});

const ChatContent = Type.Union([
  Type.String({ maxLength: 32_000 }),
  Type.Array(Type.Object({ type: Type.Literal('text'), text: Type.String({ maxLength: 32_000 }) }), { maxItems: 64 }),
  Type.Null(),
]);

/** The SDK's InternChatCompletionRequest; the last message is the turn's input. */
export const InternChatBody = Type.Object({
  messages: Type.Array(
    Type.Object({
      role: StringEnum(['system', 'developer', 'user', 'assistant', 'tool'] as const),
      content: Type.Optional(ChatContent),
      tool_call_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
      tool_calls: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 64 })),
    }),
    { minItems: 1, maxItems: 256 },
  ),
  approval_mode: Type.Optional(StringEnum(['self-drive', 'manual'] as const)),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  stream: Type.Optional(Type.Boolean()),
});

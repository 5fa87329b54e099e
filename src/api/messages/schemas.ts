import { type Static, type TObject, type TUnsafe, Type } from 'typebox';
import { Nullable, NullableStringEnum, StringEnum } from '../../http/schema-helpers.js';
import { CacheControl } from '../chat/content-schemas.js';
import { Plugin } from '../chat/plugin-schemas.js';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';
import { StopServerToolsWhen } from '../chat/stop-condition-schema.js';
import { JsonSchemaObject } from '../chat/tool-schemas.js';
import { DiscriminatedUnion, TypeUnion } from '../chat/union-schemas.js';

/**
 * Objects told apart by their `type`, where a type this list does not know
 * passes (Anthropic adds block and tool types over time, and they go through
 * untouched to an Anthropic endpoint); a known type is checked against its
 * own variant.
 */
function OpenUnion<const T extends TObject[]>(variants: T): TUnsafe<Static<T[number]>> {
  return Type.Unsafe<Static<T[number]>>({
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string' } },
    allOf: variants.map((variant) => ({
      if: { required: ['type'], properties: { type: { const: (variant.properties.type as { const: string }).const } } },
      then: variant,
    })),
  });
}

const Cache = Type.Optional(CacheControl);

const Source = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('base64'), media_type: Type.String({ minLength: 1 }), data: Type.String() }),
  Type.Object({ type: Type.Literal('url'), url: Type.String({ minLength: 1 }) }),
  Type.Object({ type: Type.Literal('text'), media_type: Type.Optional(Type.String()), data: Type.String() }),
]);

const TextBlock = Type.Object({ type: Type.Literal('text'), text: Type.String(), cache_control: Cache });
const ImageBlock = Type.Object({ type: Type.Literal('image'), source: Source, cache_control: Cache });
const DocumentBlock = Type.Object({
  type: Type.Literal('document'),
  source: Source,
  title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  cache_control: Cache,
});
const ToolUseBlock = Type.Object({
  type: Type.Literal('tool_use'),
  id: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  input: Type.Record(Type.String(), Type.Unknown()),
  cache_control: Cache,
});
const ToolResultBlock = Type.Object({
  type: Type.Literal('tool_result'),
  tool_use_id: Type.String({ minLength: 1 }),
  content: Type.Optional(TypeUnion([Type.String(), Type.Array(OpenUnion([TextBlock, ImageBlock, DocumentBlock]))])),
  is_error: Type.Optional(Type.Boolean()),
  cache_control: Cache,
});
const ThinkingBlock = Type.Object({ type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String() });
const RedactedThinkingBlock = Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() });

const ContentBlock = OpenUnion([TextBlock, ImageBlock, DocumentBlock, ToolUseBlock, ToolResultBlock, ThinkingBlock, RedactedThinkingBlock]);

const Message = Type.Object({
  role: StringEnum(['user', 'assistant']),
  // Anthropic refuses a turn without content, as the providers it is translated for do.
  content: TypeUnion([Type.String(), Type.Array(ContentBlock, { minItems: 1 })]),
});

/** A client tool (no type, or `custom`) has a name and an input schema; Anthropic's own tools (a versioned type) their own fields. */
const MessagesTool = Type.Object(
  {
    type: Type.Optional(Type.String({ minLength: 1 })),
    name: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.Optional(Type.String()),
    input_schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    cache_control: Cache,
  },
  {
    if: { not: { required: ['type'] } },
    then: { required: ['input_schema'] },
    else: { if: { properties: { type: { const: 'custom' } } }, then: { required: ['input_schema'] } },
  },
);

const ToolChoice = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('auto'), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }),
  Type.Object({ type: Type.Literal('any'), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }),
  Type.Object({
    type: Type.Literal('tool'),
    name: Type.String({ minLength: 1 }),
    disable_parallel_tool_use: Type.Optional(Type.Boolean()),
  }),
  Type.Object({ type: Type.Literal('none') }),
]);

const Thinking = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('enabled'), budget_tokens: Type.Integer({ minimum: 1 }) }),
  Type.Object({ type: Type.Literal('disabled') }),
  Type.Object({ type: Type.Literal('adaptive') }),
]);

/** Anthropic's output settings: how much effort, and structured outputs (the text is JSON valid against the schema). */
const OutputConfig = Type.Object({
  effort: Type.Optional(NullableStringEnum(['low', 'medium', 'high', 'xhigh', 'max'])),
  format: Type.Optional(Nullable(Type.Object({ type: Type.Literal('json_schema'), schema: JsonSchemaObject }))),
});

const ModelId = Type.String({ minLength: 1 });

/**
 * The body of POST /messages: Anthropic's Messages API (its `model` is the
 * gateway's model id), with the reference's routing fields (models,
 * provider, plugins, session_id). Unknown top-level fields are tolerated:
 * they are Anthropic's newer ones, sent on to Anthropic endpoints.
 */
export const MessagesRequestBody = Type.Object({
  model: Type.Optional(ModelId),
  models: Type.Optional(Type.Array(ModelId)),
  max_tokens: Type.Integer({ minimum: 1 }),
  messages: Type.Array(Message, { minItems: 1 }),
  system: Type.Optional(TypeUnion([Type.String(), Type.Array(TextBlock)])),
  stop_sequences: Type.Optional(Type.Array(Type.String())),
  stream: Type.Optional(Type.Boolean()),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  top_k: Type.Optional(Type.Integer({ minimum: 0 })),
  tools: Type.Optional(Type.Array(MessagesTool)),
  tool_choice: Type.Optional(ToolChoice),
  thinking: Type.Optional(Thinking),
  metadata: Type.Optional(Type.Object({ user_id: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])) })),
  service_tier: Type.Optional(StringEnum(['auto', 'standard_only'])),
  output_config: Type.Optional(OutputConfig),
  cache_control: Cache,
  provider: Type.Optional(ProviderPreferences),
  plugins: Type.Optional(Type.Array(Plugin)),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  stop_server_tools_when: Type.Optional(Type.Array(StopServerToolsWhen, { minItems: 1 })),
});

export type MessagesRequestBody = Static<typeof MessagesRequestBody>;

const MetadataLevel = StringEnum(['disabled', 'enabled']);

/** Headers of POST /messages: Anthropic's version and betas (passed on to Anthropic endpoints), the gateway's own. */
export const MessagesRequestHeaders = Type.Object({
  'anthropic-version': Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  'anthropic-beta': Type.Optional(Type.String({ maxLength: 1024 })),
  'x-session-id': Type.Optional(Type.String({ maxLength: 256 })),
  'x-service-metadata': Type.Optional(MetadataLevel),
  'x-service-experimental-metadata': Type.Optional(MetadataLevel),
});

/** An error of POST /messages, in Anthropic's shape; the gateway's metadata (attempts, limits) beside the message. */
export const MessagesErrorBody = Type.Object(
  {
    type: Type.Literal('error'),
    error: Type.Object({
      type: Type.String(),
      message: Type.String(),
      metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    request_id: Type.Union([Type.String(), Type.Null()]),
  },
  {
    description:
      "Anthropic's error body: error.type from the status (400 invalid_request_error, 401 authentication_error, 402 billing_error, 403 permission_error, 404 not_found_error, 413 request_too_large, 429 rate_limit_error, 500 api_error, 503 and 529 overloaded_error)",
  },
);

/** A Message (or, streamed, Anthropic's named events), as Anthropic answers it: described, not re-serialized, so that an Anthropic endpoint's newer fields reach the client. */
export const MessagesResponseBody = Type.Unknown({
  description:
    'A Message as Anthropic\'s API answers it (`type: "message"`, content blocks, stop_reason, usage); with stream, Anthropic\'s named events',
});

/** The body of POST /messages/count_tokens: a Messages body, max_tokens not needed. */
export const CountTokensBody = Type.Object({ ...MessagesRequestBody.properties, max_tokens: Type.Optional(Type.Integer({ minimum: 1 })) });

export type CountTokensBody = Static<typeof CountTokensBody>;

import { type Static, Type } from 'typebox';
import { Nullable, NullableStringEnum, StringEnum } from '../../http/schema-helpers.js';
import { CacheControl, Content, TextOnlyPart } from './content-schemas.js';
import { ChatMessage } from './message-schemas.js';
import { Plugin } from './plugin-schemas.js';
import { ProviderPreferences } from './provider-preferences-schema.js';
import { Reasoning, ReasoningEffort, TokenLimit } from './reasoning-schema.js';
import { ResponseFormat } from './response-format-schema.js';
import { StopServerToolsWhen } from './stop-condition-schema.js';
import { Tool, ToolChoice } from './tool-schemas.js';
import { TypeUnion } from './union-schemas.js';

const SESSION_ID_MAX_LENGTH = 256;

const NullableNumber = (range: { minimum?: number; maximum?: number; exclusiveMinimum?: number }) => Nullable(Type.Number(range));

const Penalty = NullableNumber({ minimum: -2, maximum: 2 });

const ModelId = Type.String({ minLength: 1 });

/**
 * The body of POST /chat/completions (spec 2.1). Unknown top-level fields are
 * tolerated: clients send vendor extras. Rules JSON Schema cannot state are in
 * check-chat-request.ts.
 */
export const ChatRequestBody = Type.Object({
  messages: Type.Array(ChatMessage, { minItems: 1 }),
  model: Type.Optional(ModelId),
  models: Type.Optional(Type.Array(ModelId)),
  stream: Type.Optional(Type.Boolean({ default: false })),
  stream_options: Type.Optional(Nullable(Type.Object({ include_usage: Type.Optional(Type.Boolean()) }))),

  temperature: Type.Optional(NullableNumber({ minimum: 0, maximum: 2 })),
  top_p: Type.Optional(NullableNumber({ minimum: 0, maximum: 1 })),
  top_k: Type.Optional(Nullable(Type.Integer())),
  // Ranges from the provider parameter docs; the reference states none.
  top_a: Type.Optional(NullableNumber({ minimum: 0, maximum: 1 })),
  min_p: Type.Optional(NullableNumber({ minimum: 0, maximum: 1 })),
  frequency_penalty: Type.Optional(Penalty),
  presence_penalty: Type.Optional(Penalty),
  // A multiplier on repeated tokens' logits: 1 is neutral, zero or less has no meaning.
  repetition_penalty: Type.Optional(NullableNumber({ exclusiveMinimum: 0 })),
  /** Deprecated in favour of max_completion_tokens, still accepted. */
  max_tokens: Type.Optional(TokenLimit),
  max_completion_tokens: Type.Optional(TokenLimit),
  logprobs: Type.Optional(Nullable(Type.Boolean())),
  top_logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  logit_bias: Type.Optional(Nullable(Type.Record(Type.String(), Type.Number()))),
  seed: Type.Optional(Nullable(Type.Integer())),
  stop: Type.Optional(TypeUnion([Type.String(), Type.Array(Type.String(), { maxItems: 4 }), Type.Null()])),

  tools: Type.Optional(Type.Array(Tool)),
  tool_choice: Type.Optional(ToolChoice),
  parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
  response_format: Type.Optional(ResponseFormat),
  reasoning: Type.Optional(Reasoning),
  reasoning_effort: Type.Optional(ReasoningEffort),
  modalities: Type.Optional(Type.Array(StringEnum(['text', 'image', 'audio']))),
  image_config: Type.Optional(Type.Record(Type.String(), TypeUnion([Type.String(), Type.Number(), Type.Array(Type.Unknown())]))),
  prediction: Type.Optional(Nullable(Type.Object({ type: Type.Literal('content'), content: Content(TextOnlyPart) }))),

  // Key lengths are checked in code: Ajv reports a long key as if it were the object's own length.
  metadata: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 512 }), { maxProperties: 16 })),
  user: Type.Optional(Type.String()),
  session_id: Type.Optional(Type.String({ maxLength: SESSION_ID_MAX_LENGTH })),
  prompt_cache_key: Type.Optional(Nullable(Type.String())),
  prompt_cache_options: Type.Optional(
    Nullable(Type.Object({ mode: Type.Literal('explicit'), ttl: Type.Optional(Nullable(Type.String())) })),
  ),
  cache_control: Type.Optional(CacheControl),

  provider: Type.Optional(ProviderPreferences),
  plugins: Type.Optional(Type.Array(Plugin)),
  service_tier: Type.Optional(NullableStringEnum(['auto', 'default', 'fast', 'flex', 'priority', 'scale'])),
  /** Deprecated (the reference points to provider.sort.partition), still accepted. */
  route: Type.Optional(NullableStringEnum(['fallback', 'sort'])),
  debug: Type.Optional(Type.Object({ echo_upstream_body: Type.Optional(Type.Boolean()) })),
  trace: Type.Optional(
    Type.Object({
      trace_id: Type.Optional(Type.String()),
      trace_name: Type.Optional(Type.String()),
      span_name: Type.Optional(Type.String()),
      generation_name: Type.Optional(Type.String()),
      parent_span_id: Type.Optional(Type.String()),
    }),
  ),
  stop_server_tools_when: Type.Optional(Type.Array(StopServerToolsWhen, { minItems: 1 })),
});

export type ChatRequestBody = Static<typeof ChatRequestBody>;

const MetadataLevel = StringEnum(['disabled', 'enabled']);

/** Headers of POST /chat/completions (spec 4.1); other headers pass. */
export const ChatRequestHeaders = Type.Object({
  'x-session-id': Type.Optional(Type.String({ maxLength: SESSION_ID_MAX_LENGTH })),
  'x-service-metadata': Type.Optional(MetadataLevel),
  /** The legacy name of x-service-metadata. */
  'x-service-experimental-metadata': Type.Optional(MetadataLevel),
});

import { type Static, type TSchema, Type } from 'typebox';
import { Nullable, NullableStringEnum, StringEnum } from '../../http/schema-helpers.js';
import type { ResponsesInputItem } from '../../protocol/responses.js';
import { Reasoning, TokenLimit } from '../chat/reasoning-schema.js';
import { ChatRequestBody } from '../chat/schemas.js';
import { ContainerFileIds } from '../chat/server-tool-schemas.js';
import { JsonSchemaObject } from '../chat/tool-schemas.js';
import { DiscriminatedUnion, TypeUnion } from '../chat/union-schemas.js';

const InputText = Type.Object({ type: Type.Literal('input_text'), text: Type.String() });
const InputImage = Type.Object({
  type: Type.Literal('input_image'),
  image_url: Type.Optional(Nullable(Type.String())),
  file_id: Type.Optional(Nullable(Type.String())),
  detail: Type.Optional(StringEnum(['auto', 'low', 'high'])),
});
const InputFile = Type.Object({
  type: Type.Literal('input_file'),
  filename: Type.Optional(Type.String()),
  file_data: Type.Optional(Type.String()),
  file_id: Type.Optional(Nullable(Type.String())),
  file_url: Type.Optional(Type.String()),
});
const OutputText = Type.Object({
  type: Type.Literal('output_text'),
  text: Type.String(),
  annotations: Type.Optional(Type.Array(Type.Unknown())),
});
const Refusal = Type.Object({ type: Type.Literal('refusal'), refusal: Type.String() });
const InputContent = DiscriminatedUnion('type', [InputText, InputImage, InputFile]);

const MessageItem = Type.Object({
  type: Type.Optional(Type.Literal('message')),
  id: Type.Optional(Type.String()),
  role: StringEnum(['user', 'assistant', 'system', 'developer']),
  content: TypeUnion([Type.String(), Type.Array(DiscriminatedUnion('type', [InputText, InputImage, InputFile, OutputText, Refusal]))]),
  status: Type.Optional(Type.String()),
});
const FunctionCallItem = Type.Object({
  type: Type.Literal('function_call'),
  id: Type.Optional(Type.String()),
  call_id: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  arguments: Type.String(),
  status: Type.Optional(Type.String()),
});
const FunctionCallOutputItem = Type.Object({
  type: Type.Literal('function_call_output'),
  id: Type.Optional(Nullable(Type.String())),
  call_id: Type.String({ minLength: 1 }),
  output: TypeUnion([Type.String(), Type.Array(InputContent)]),
  status: Type.Optional(Nullable(Type.String())),
});
const ReasoningItem = Type.Object({
  type: Type.Literal('reasoning'),
  id: Type.Optional(Type.String()),
  summary: Type.Array(Type.Object({ type: Type.Literal('summary_text'), text: Type.String() })),
  content: Type.Optional(Nullable(Type.Array(Type.Object({ type: Type.Literal('reasoning_text'), text: Type.String() })))),
  encrypted_content: Type.Optional(Nullable(Type.String())),
  status: Type.Optional(Type.String()),
});

/** An earlier answer's code run, sent back with the conversation (the gateway keeps none). */
const CodeInterpreterCallItem = Type.Object({
  type: Type.Literal('code_interpreter_call'),
  id: Type.String({ minLength: 1 }),
  status: Type.Optional(Type.String()),
  code: Nullable(Type.String()),
  container_id: Type.Optional(Type.String()),
  outputs: Type.Optional(Nullable(Type.Array(Type.Object({ type: Type.String() })))),
});

const ITEM_TYPES: [string, TSchema][] = [
  ['message', MessageItem],
  ['function_call', FunctionCallItem],
  ['function_call_output', FunctionCallOutputItem],
  ['reasoning', ReasoningItem],
  ['code_interpreter_call', CodeInterpreterCallItem],
];

/** An input item, told apart by `type`; a message may leave it out (OpenAI's EasyInputMessage). */
const InputItem = Type.Unsafe<ResponsesInputItem>({
  type: 'object',
  properties: { type: { type: 'string', enum: ITEM_TYPES.map(([type]) => type) } },
  allOf: [
    { if: { not: { required: ['type'] } }, then: MessageItem },
    ...ITEM_TYPES.map(([type, schema]) => ({ if: { required: ['type'], properties: { type: { const: type } } }, then: schema })),
  ],
});

const FunctionTool = Type.Object({
  type: Type.Literal('function'),
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
  description: Type.Optional(Nullable(Type.String())),
  parameters: Type.Optional(Nullable(JsonSchemaObject)),
  strict: Type.Optional(Nullable(Type.Boolean())),
});

/**
 * OpenAI's code interpreter tool, run by the gateway (`service:code_interpreter`): `container` is
 * "auto" ({"type": "auto"} too: a new container for the request, with the workspace's files
 * `file_ids` names copied in) or the id of one of the workspace's.
 */
const CodeInterpreterTool = Type.Object({
  type: Type.Literal('code_interpreter'),
  container: TypeUnion([
    Type.String({ minLength: 1, maxLength: 64 }),
    Type.Object({
      type: Type.Literal('auto'),
      file_ids: Type.Optional(ContainerFileIds),
      memory_limit: Type.Optional(Nullable(Type.String())),
    }),
  ]),
});

const ToolChoice = TypeUnion([
  StringEnum(['none', 'auto', 'required']),
  Type.Object({ type: Type.Literal('function'), name: Type.String({ minLength: 1 }) }),
]);

const TextFormat = DiscriminatedUnion('type', [
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({
    type: Type.Literal('json_schema'),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    schema: JsonSchemaObject,
    description: Type.Optional(Type.String()),
    strict: Type.Optional(Nullable(Type.Boolean())),
  }),
]);

/** The gateway's own fields, the same as chat's: routing, provider preferences, plugins, sessions, tracing. */
const { models, provider, plugins, session_id, service_tier, route, trace, top_k, frequency_penalty, presence_penalty, cache_control } =
  ChatRequestBody.properties;

/**
 * OpenAI's Responses `prompt_cache_options`: `mode` implicit (its default:
 * what the Agents SDK sends for promptCacheOptions) or explicit, either left
 * out; chat's, as the reference has it, knows explicit only.
 */
const PromptCacheOptions = Nullable(
  Type.Object({ mode: Type.Optional(StringEnum(['implicit', 'explicit'])), ttl: Type.Optional(Nullable(Type.String())) }),
);

/**
 * The body of POST /responses: OpenAI's Responses API (the reference's
 * ResponsesRequest) with the gateway's routing fields beside it. Unknown
 * fields are tolerated, as for chat.
 */
export const ResponsesRequestBody = Type.Object({
  model: Type.Optional(Type.String({ minLength: 1 })),
  input: TypeUnion([Type.String(), Type.Array(InputItem, { minItems: 1 })]),
  instructions: Type.Optional(Nullable(Type.String())),
  // Told apart by `type`, so that a hosted tool (web_search, file_search…) is refused for its type, not for a missing name.
  tools: Type.Optional(Type.Array(DiscriminatedUnion('type', [FunctionTool, CodeInterpreterTool]))),
  tool_choice: Type.Optional(ToolChoice),
  parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
  text: Type.Optional(
    Nullable(Type.Object({ format: Type.Optional(TextFormat), verbosity: Type.Optional(NullableStringEnum(['low', 'medium', 'high'])) })),
  ),
  reasoning: Type.Optional(Nullable(Reasoning)),
  max_output_tokens: Type.Optional(TokenLimit),
  max_tool_calls: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
  top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  top_logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  metadata: Type.Optional(Nullable(Type.Record(Type.String(), Type.String({ maxLength: 512 }), { maxProperties: 16 }))),
  user: Type.Optional(Type.String()),
  safety_identifier: Type.Optional(Type.String()),
  stream: Type.Optional(Type.Boolean({ default: false })),
  store: Type.Optional(Nullable(Type.Boolean())),
  previous_response_id: Type.Optional(Nullable(Type.String())),
  conversation: Type.Optional(Type.Unknown()),
  background: Type.Optional(Nullable(Type.Boolean())),
  include: Type.Optional(Nullable(Type.Array(Type.String()))),
  truncation: Type.Optional(NullableStringEnum(['auto', 'disabled'])),
  prompt_cache_key: Type.Optional(Nullable(Type.String())),
  prompt_cache_options: Type.Optional(PromptCacheOptions),
  // OpenAI's own values ('in_memory', '24h', and its SDKs' spellings) are OpenAI's to check: the field goes to native endpoints only.
  prompt_cache_retention: Type.Optional(Nullable(Type.String())),

  models,
  provider,
  plugins,
  session_id,
  service_tier,
  route,
  trace,
  top_k,
  frequency_penalty,
  presence_penalty,
  cache_control,
});

export type ResponsesRequestBody = Static<typeof ResponsesRequestBody>;

/** The fields a Responses body shares with a chat body as they are (the preset reference included); the conversion makes the rest. */
export const GATEWAY_FIELDS: readonly string[] = [
  'model',
  'preset',
  'models',
  'provider',
  'plugins',
  'session_id',
  'service_tier',
  'route',
  'trace',
  'top_k',
  'frequency_penalty',
  'presence_penalty',
  'prompt_cache_options',
  'cache_control',
];

import type { ChatRequest, ResponseFormat } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import type { AnthropicMessagesRequest, AnthropicTool } from './anthropic-messages-api-types.js';
import { convertToAnthropicOutputSchema } from './convert-to-anthropic-output-schema.js';

/** The synthetic tool whose input is the answer, when JSON is asked of a model without structured outputs. */
export const JSON_TOOL_NAME = 'json_output';

/**
 * How a JSON answer is asked of Anthropic: `native`, structured outputs
 * (`output_config.format`), or `tool`, one forced tool whose input is the
 * answer.
 */
export type JsonOutputMode = 'native' | 'tool';

type JsonFormat = Extract<ResponseFormat, { type: 'json_schema' | 'json_object' }>;

const isJsonFormat = (format: ResponseFormat | undefined): format is JsonFormat =>
  format?.type === 'json_schema' || format?.type === 'json_object';

/**
 * How this endpoint serves the request's JSON format, or undefined when
 * there is none to serve (pure). A schema goes natively where the endpoint
 * lists `structured_outputs` (or lists nothing). Anthropic has no JSON mode
 * and its structured outputs close every object, so `json_object` (and a
 * json_schema without a schema) is the forced tool with an open object
 * schema, on every model; so is a schema on a model that lists only
 * `response_format`. An endpoint that lists neither is not sent the format,
 * as with any parameter it does not list.
 */
export function anthropicJsonOutputMode(request: Pick<ChatRequest, 'response_format'>, target: UpstreamTarget): JsonOutputMode | undefined {
  const format = request.response_format;
  if (!isJsonFormat(format)) return undefined;
  const accepts = (name: string) => target.supportedParameters?.includes(name) ?? true;
  const schema = format.type === 'json_schema' ? format.json_schema.schema : undefined;
  if (schema !== undefined && accepts('structured_outputs')) return 'native';
  return accepts('response_format') || accepts('structured_outputs') ? 'tool' : undefined;
}

type JsonOutputFields = Pick<AnthropicMessagesRequest, 'output_config' | 'tools' | 'tool_choice'>;

/**
 * The body fields that ask for the JSON answer (pure). Natively, the
 * schema as Anthropic takes it (convertToAnthropicOutputSchema). With the
 * tool, JSON_TOOL_NAME is added to the tools and forced; when the client
 * offers tools of its own (and did not say `none`), the choice is `any`, so
 * the model may call one of them instead, and a tool it named stays forced;
 * with `none`, its tools stay in the prompt and the JSON tool is forced.
 */
export function convertToAnthropicJsonOutput(
  format: ResponseFormat | undefined,
  mode: JsonOutputMode,
  current: Pick<AnthropicMessagesRequest, 'tools' | 'tool_choice'>,
): JsonOutputFields {
  if (!isJsonFormat(format)) return {};
  const described = format.type === 'json_schema' ? format.json_schema : undefined;
  if (mode === 'native' && described?.schema !== undefined)
    return { output_config: { format: { type: 'json_schema', schema: convertToAnthropicOutputSchema(described.schema) } } };

  const tool: AnthropicTool = {
    name: JSON_TOOL_NAME,
    description: described?.description ?? 'Give the answer: its input is the whole reply, as a JSON object.',
    input_schema: described?.schema ?? { type: 'object' },
  };
  const choice = current.tool_choice;
  const offersTools = (current.tools?.length ?? 0) > 0 && choice?.type !== 'none';
  const parallel =
    choice && 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use ? { disable_parallel_tool_use: true } : {};
  return {
    tools: [...(current.tools ?? []), tool],
    tool_choice: !offersTools ? { type: 'tool', name: JSON_TOOL_NAME } : choice?.type === 'tool' ? choice : { type: 'any', ...parallel },
  };
}

import type { ResponsesRequest } from '../../protocol/responses.js';
import { convertResponsesRequest } from '../../responses/convert-responses-request.js';
import type { ChatRequestBody } from '../chat/schemas.js';
import { GATEWAY_FIELDS, type ResponsesRequestBody } from './schemas.js';

type ResponsesTool = NonNullable<ResponsesRequestBody['tools']>[number];

type CodeInterpreterTool = Extract<ResponsesTool, { type: 'code_interpreter' }>;

/** The files a code_interpreter tool's new container starts with (`container: {type: "auto", file_ids}`). */
export const containerFileIds = (tool: CodeInterpreterTool): string[] =>
  typeof tool.container === 'string' ? [] : (tool.container.file_ids ?? []);

/** A code_interpreter tool as the chat request's server-tool entry: its container ("auto" for a new one) and files, as the gateway runs it. */
const codeInterpreterEntry = (tool: CodeInterpreterTool) => {
  const fileIds = containerFileIds(tool);
  return {
    type: 'service:code_interpreter' as const,
    parameters: {
      container: typeof tool.container === 'string' ? tool.container : 'auto',
      ...(fileIds.length > 0 ? { file_ids: fileIds } : {}),
    },
  };
};

/**
 * The chat body of a Responses body: its gateway fields as they are, its code_interpreter tools as
 * server-tool entries, the rest converted (convert-responses-request.ts).
 */
export function chatBodyOf(body: ResponsesRequestBody): ChatRequestBody {
  const fields = body as Record<string, unknown>;
  const shared = Object.fromEntries(GATEWAY_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]));
  const tools = body.tools ?? [];
  const functions = tools.filter((tool) => tool.type === 'function');
  const server = tools.flatMap((tool) => (tool.type === 'code_interpreter' ? [codeInterpreterEntry(tool)] : []));
  const converted = convertResponsesRequest({ ...body, ...(body.tools ? { tools: functions } : {}) } as ResponsesRequest);
  return {
    ...shared,
    ...converted,
    ...(server.length > 0 ? { tools: [...(converted.tools ?? []), ...server] } : {}),
  } as ChatRequestBody;
}

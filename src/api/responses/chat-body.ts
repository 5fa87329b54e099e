import type { ResponsesRequest } from '../../protocol/responses.js';
import { convertResponsesRequest } from '../../responses/convert-responses-request.js';
import type { ChatRequestBody } from '../chat/schemas.js';
import { GATEWAY_FIELDS, type ResponsesRequestBody } from './schemas.js';

/** The chat body of a Responses body: its gateway fields as they are, the rest converted (convert-responses-request.ts). */
export function chatBodyOf(body: ResponsesRequestBody): ChatRequestBody {
  const fields = body as Record<string, unknown>;
  const shared = Object.fromEntries(GATEWAY_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]));
  return { ...shared, ...convertResponsesRequest(body as ResponsesRequest) } as ChatRequestBody;
}

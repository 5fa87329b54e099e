import type { ResponsesRequest } from '../../protocol/responses.js';
import { type OpenAiError, SimErrors } from '../openai-errors.js';
import { REASONING_EFFORTS } from '../reply.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning'] as const;
const ROLES = ['user', 'assistant', 'system', 'developer'] as const;
const FORMATS = ['text', 'json_object', 'json_schema'] as const;

/**
 * The checks OpenAI's Responses API makes that a gateway can trip over, in
 * its wording: model and input, the items' types and roles, function tools'
 * names, text.format's schema, reasoning.effort, and previous_response_id
 * (the simulator stores nothing, so every id is unknown); plus whatever the
 * simulated reply reads, so that a bad request is a 400, never a crash.
 */
export function validateResponsesRequest(
  body: unknown,
  model: string | undefined,
): { ok: true; request: ResponsesRequest; model: string } | { ok: false; error: OpenAiError } {
  const fail = (error: OpenAiError) => ({ ok: false as const, error });
  if (!isObject(body)) return fail(SimErrors.invalidType('body', 'an object', 'something else'));
  if (!model) return fail(SimErrors.missingModel());
  const { input } = body;
  if (input === undefined) return fail(SimErrors.missingParameter('input'));
  if (typeof input !== 'string' && !Array.isArray(input)) return fail(SimErrors.invalidType('input', 'a string or an array', typeof input));
  if (Array.isArray(input)) {
    for (const [i, item] of input.entries()) {
      if (!isObject(item)) return fail(SimErrors.invalidType(`input[${i}]`, 'an object', typeof item));
      const type = item.type ?? 'message';
      if (!ITEM_TYPES.includes(type as (typeof ITEM_TYPES)[number]))
        return fail(SimErrors.invalidValue(`input[${i}].type`, String(type), ITEM_TYPES));
      if (type === 'message' && !ROLES.includes(item.role as (typeof ROLES)[number]))
        return fail(SimErrors.invalidValue(`input[${i}].role`, String(item.role), ROLES));
      if (type === 'message' && typeof item.content !== 'string' && !Array.isArray(item.content))
        return fail(SimErrors.missingParameter(`input[${i}].content`));
      if ((type === 'function_call' || type === 'function_call_output') && typeof item.call_id !== 'string')
        return fail(SimErrors.missingParameter(`input[${i}].call_id`));
      if (type === 'function_call_output' && item.output === undefined) return fail(SimErrors.missingParameter(`input[${i}].output`));
      if (type === 'reasoning' && !Array.isArray(item.summary)) return fail(SimErrors.missingParameter(`input[${i}].summary`));
    }
  }
  if (body.tools != null && !Array.isArray(body.tools))
    return fail(SimErrors.invalidType('tools', 'an array of objects', typeof body.tools));
  const tools = (body.tools ?? []) as unknown[];
  const nameless = tools.findIndex((tool) => !isObject(tool) || (tool.type === 'function' && typeof tool.name !== 'string'));
  if (nameless >= 0) return fail(SimErrors.missingParameter(`tools[${nameless}].name`));
  const format = isObject(body.text) ? body.text.format : undefined;
  if (isObject(format)) {
    if (!FORMATS.includes(format.type as (typeof FORMATS)[number]))
      return fail(SimErrors.invalidValue('text.format.type', String(format.type), FORMATS));
    if (format.type === 'json_schema' && typeof format.name !== 'string') return fail(SimErrors.missingParameter('text.format.name'));
    if (format.type === 'json_schema' && !isObject(format.schema)) return fail(SimErrors.missingParameter('text.format.schema'));
  }
  const effort = isObject(body.reasoning) ? body.reasoning.effort : undefined;
  if (effort != null && !REASONING_EFFORTS.includes(effort as (typeof REASONING_EFFORTS)[number])) {
    return fail(SimErrors.invalidValue('reasoning.effort', String(effort), REASONING_EFFORTS));
  }
  if (typeof body.previous_response_id === 'string') return fail(SimErrors.previousResponseNotFound(body.previous_response_id));
  return { ok: true, request: body as unknown as ResponsesRequest, model };
}

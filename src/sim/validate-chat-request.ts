import { type OpenAiError, SimErrors } from './openai-errors.js';
import { isReasoningModel, REASONING_EFFORTS, type SimChatRequest } from './reply.js';
import { OPENAI_SERVICE_TIERS } from './service-tier.js';

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'] as const;

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'an integer'
          : 'a decimal'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasFunctionName = (value: unknown) => isObject(value) && isObject(value.function) && typeof value.function.name === 'string';

/** The types of the optional fields the reply is built from (null means absent, as at OpenAI). */
const FIELD_TYPES: readonly [field: string, expected: string, check: (value: unknown) => boolean][] = [
  ['tools', 'an array of objects', (value) => Array.isArray(value) && value.every(isObject)],
  [
    'stop',
    'a string or an array of strings',
    (value) => typeof value === 'string' || (Array.isArray(value) && value.every((s) => typeof s === 'string')),
  ],
  ['max_tokens', 'an integer', Number.isInteger],
  ['max_completion_tokens', 'an integer', Number.isInteger],
  ['top_logprobs', 'an integer', Number.isInteger],
  ['response_format', 'an object', isObject],
  ['stream_options', 'an object', isObject],
];

/**
 * The checks OpenAI makes that a gateway can trip over (missing model or
 * messages, bad roles and types, stream_options without stream, max_tokens on
 * reasoning models), with OpenAI's wording; plus whatever the simulated reply
 * reads, so that a bad request is a 400 and never a crash. `model` is the name
 * without the knob suffix.
 */
export function validateChatRequest(
  body: unknown,
  model: string | undefined,
): { ok: true; request: SimChatRequest } | { ok: false; error: OpenAiError } {
  const fail = (error: OpenAiError) => ({ ok: false as const, error });
  if (!isObject(body)) return fail(SimErrors.invalidType('body', 'an object', describe(body)));

  if (!model) return fail(SimErrors.missingModel());
  const { messages } = body;
  if (messages === undefined) return fail(SimErrors.missingParameter('messages'));
  if (!Array.isArray(messages)) return fail(SimErrors.invalidType('messages', 'an array of objects', describe(messages)));
  if (messages.length === 0) return fail(SimErrors.emptyArray('messages'));
  for (const [i, message] of messages.entries()) {
    if (!isObject(message)) return fail(SimErrors.invalidType(`messages[${i}]`, 'an object', describe(message)));
    if (!ROLES.includes(message.role as (typeof ROLES)[number])) {
      return fail(SimErrors.invalidValue(`messages[${i}].role`, String(message.role), ROLES));
    }
  }

  for (const [field, expected, check] of FIELD_TYPES) {
    const value = body[field];
    if (value != null && !check(value)) return fail(SimErrors.invalidType(field, expected, describe(value)));
  }
  const tools = (body.tools ?? []) as unknown[];
  const nameless = tools.findIndex((tool) => !hasFunctionName(tool));
  if (nameless >= 0) return fail(SimErrors.missingParameter(`tools[${nameless}].function.name`));
  if (isObject(body.tool_choice) && !hasFunctionName(body.tool_choice))
    return fail(SimErrors.missingParameter('tool_choice.function.name'));
  if (isObject(body.response_format) && body.response_format.type === 'json_schema' && !isObject(body.response_format.json_schema)) {
    return fail(SimErrors.missingParameter('response_format.json_schema'));
  }
  const effort = body.reasoning_effort;
  if (effort != null && !REASONING_EFFORTS.includes(effort as (typeof REASONING_EFFORTS)[number])) {
    return fail(SimErrors.invalidValue('reasoning_effort', String(effort), REASONING_EFFORTS));
  }

  const tier = body.service_tier;
  if (tier != null && !OPENAI_SERVICE_TIERS.includes(tier as (typeof OPENAI_SERVICE_TIERS)[number])) {
    return fail(SimErrors.invalidValue('service_tier', String(tier), OPENAI_SERVICE_TIERS));
  }

  if (body.stream_options != null && body.stream !== true) return fail(SimErrors.streamOptionsWithoutStream());
  if (isReasoningModel(model) && body.max_tokens != null)
    return fail(SimErrors.unsupportedParameter('max_tokens', 'max_completion_tokens'));

  return { ok: true, request: { ...(body as unknown as SimChatRequest), model } };
}

import { type AnthropicError, AnthropicErrors } from './anthropic-errors.js';
import type { SimMessagesRequest } from './sim-messages-request.js';
import { outputConfigError } from './validate-output-config.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPositiveInteger = (value: unknown) => Number.isInteger(value) && (value as number) >= 1;

const EXTENDED_THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const THINKING_BLOCKS: unknown[] = ['thinking', 'redacted_thinking'];

/**
 * The checks Anthropic makes that a gateway can trip over, in Anthropic's
 * `field: message` wording: model, max_tokens (required), messages and
 * their roles, tools and tool_choice, and extended thinking's rules (a
 * budget of at least 1024 below max_tokens, no temperature other than 1,
 * no forced tool use, a tool loop's assistant turn starting with its
 * thinking), output_config (validate-output-config.ts); plus whatever the simulated reply reads, so that a
 * bad request is a 400 and never a crash. `model` is the name without the
 * knob suffix.
 */
export function validateMessagesRequest(
  body: unknown,
  model: string | undefined,
): { ok: true; request: SimMessagesRequest } | { ok: false; error: AnthropicError } {
  const fail = (message: string) => ({ ok: false as const, error: AnthropicErrors.invalidRequest(message) });
  if (!isObject(body)) return fail('Input should be a valid dictionary');
  if (!model) return fail('model: Field required');
  if (body.max_tokens === undefined) return fail('max_tokens: Field required');
  if (!isPositiveInteger(body.max_tokens)) return fail('max_tokens: Input should be an integer greater than or equal to 1');
  const maxTokens = body.max_tokens as number;

  const { messages } = body;
  if (messages === undefined) return fail('messages: Field required');
  if (!Array.isArray(messages)) return fail('messages: Input should be a valid list');
  if (messages.length === 0) return fail('messages: at least one message is required');
  for (const [i, message] of messages.entries()) {
    if (!isObject(message)) return fail(`messages.${i}: Input should be a valid dictionary`);
    if (message.role !== 'user' && message.role !== 'assistant') return fail(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (typeof message.content !== 'string' && !(Array.isArray(message.content) && message.content.every(isObject))) {
      return fail(`messages.${i}.content: Input should be a valid string or a list of content blocks`);
    }
  }
  if (body.system !== undefined && typeof body.system !== 'string' && !(Array.isArray(body.system) && body.system.every(isObject))) {
    return fail('system: Input should be a valid string or a list of text blocks');
  }
  if (
    body.stop_sequences !== undefined &&
    !(Array.isArray(body.stop_sequences) && body.stop_sequences.every((s) => typeof s === 'string'))
  ) {
    return fail('stop_sequences: Input should be a valid list of strings');
  }
  if (body.temperature !== undefined && (typeof body.temperature !== 'number' || body.temperature < 0 || body.temperature > 1)) {
    return fail('temperature: Input should be a number between 0 and 1');
  }
  if (body.service_tier !== undefined && body.service_tier !== 'auto' && body.service_tier !== 'standard_only') {
    return fail("service_tier: Input should be 'auto' or 'standard_only'");
  }

  const outputConfig = outputConfigError(body.output_config, model);
  if (outputConfig) return fail(outputConfig);

  const tools = body.tools ?? [];
  if (!Array.isArray(tools)) return fail('tools: Input should be a valid list');
  const nameless = tools.findIndex((tool) => !isObject(tool) || typeof tool.name !== 'string');
  if (nameless >= 0) return fail(`tools.${nameless}.name: Field required`);
  const choice = body.tool_choice;
  if (choice !== undefined) {
    if (!isObject(choice) || !['auto', 'any', 'tool', 'none'].includes(choice.type as string)) {
      return fail("tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'");
    }
    if (choice.type === 'tool' && typeof choice.name !== 'string') return fail('tool_choice.tool.name: Field required');
  }

  const thinking = body.thinking;
  if (isObject(thinking) && thinking.type === 'enabled') {
    if (!Number.isInteger(thinking.budget_tokens) || (thinking.budget_tokens as number) < 1024) {
      return fail('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    }
    if (maxTokens <= (thinking.budget_tokens as number)) {
      return fail(
        `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${EXTENDED_THINKING_DOCS}`,
      );
    }
    if (body.temperature !== undefined && body.temperature !== 1) {
      return fail(
        `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${EXTENDED_THINKING_DOCS}`,
      );
    }
    if (isObject(choice) && (choice.type === 'any' || choice.type === 'tool')) {
      return fail('Thinking may not be enabled when tool_choice forces tool use.');
    }
    const lastAssistant = messages.findLastIndex((message: Record<string, unknown>) => message.role === 'assistant');
    const blocks = lastAssistant >= 0 ? (messages[lastAssistant] as Record<string, unknown>).content : undefined;
    if (Array.isArray(blocks) && blocks.some((block) => block.type === 'tool_use') && !THINKING_BLOCKS.includes(blocks[0]?.type)) {
      return fail(
        `messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${EXTENDED_THINKING_DOCS}`,
      );
    }
  }

  return { ok: true, request: { ...(body as unknown as SimMessagesRequest), model } };
}

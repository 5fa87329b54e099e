import type { ChatCompletion } from '../protocol/chat.js';
import type { MessagesOutputBlock, MessagesResponse } from '../protocol/messages.js';
import { isRecord } from '../util/is-record.js';
import { convertToMessagesUsage } from './convert-to-messages-usage.js';
import { mapToMessagesStopReason } from './map-to-messages-stop-reason.js';

/** Anthropic's names of the tiers it reports (standard, priority, batch), for the tiers an upstream reported; others have none. */
const MESSAGES_TIERS: Readonly<Record<string, string>> = {
  default: 'standard',
  standard: 'standard',
  priority: 'priority',
  batch: 'batch',
};

/** A tool call's JSON arguments as Anthropic's input object; arguments that are not one (a model's broken JSON) become {}. */
export function toolInputOf(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args === '' ? '{}' : args);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * A Message for a canonical completion (pure), as Anthropic orders its
 * blocks: the reasoning as a thinking block (with no signature: it was not
 * Anthropic's, and cannot be sent back to Anthropic as a thinking block), the
 * text, then the tool calls as tool_use blocks. `id` and `model` are the
 * gateway's: the generation's id and the model that served it.
 */
export function convertToMessagesResponse(completion: ChatCompletion, identity: { id: string; model: string }): MessagesResponse {
  const choice = completion.choices[0];
  const message = choice?.message;
  const tier = completion.service_tier ? MESSAGES_TIERS[completion.service_tier] : undefined;
  const content: MessagesOutputBlock[] = [];
  if (message?.reasoning) content.push({ type: 'thinking', thinking: message.reasoning, signature: '' });
  if (message?.content) content.push({ type: 'text', text: message.content });
  for (const call of message?.tool_calls ?? [])
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInputOf(call.function.arguments) });
  return {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content,
    stop_reason: mapToMessagesStopReason(choice?.finish_reason ?? null, choice?.native_finish_reason),
    stop_sequence: null,
    usage: { ...convertToMessagesUsage(completion.usage), ...(tier ? { service_tier: tier } : {}) },
  };
}

import type { ChatCompletion, ToolCall } from '../../chat/types.js';
import type { AnthropicMessagesResponse } from './anthropic-messages-api-types.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

type Message = ChatCompletion['choices'][number]['message'];

/**
 * The canonical response for a Message (pure). Text blocks make the
 * content, thinking blocks the reasoning, tool_use blocks the tool calls
 * (input as JSON arguments). Blocks of Anthropic's own server tools and
 * redacted thinking are not the client's to see or run, and are left out.
 * Anthropic sends no creation time and no fingerprint: `created` is when the
 * answer arrived.
 */
export function convertAnthropicMessagesResponse(response: AnthropicMessagesResponse, created: number): ChatCompletion {
  let content: string | null = null;
  let reasoning: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const block of response.content) {
    if (block.type === 'text') content = (content ?? '') + (block.text ?? '');
    else if (block.type === 'thinking') reasoning = (reasoning ?? '') + (block.thinking ?? '');
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const message: Message = { role: 'assistant', content };
  if (reasoning !== undefined) message.reasoning = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;

  const choice: ChatCompletion['choices'][number] = { index: 0, message, finish_reason: mapAnthropicStopReason(response.stop_reason) };
  if (response.stop_reason != null) choice.native_finish_reason = response.stop_reason;
  const completion: ChatCompletion = {
    id: response.id ?? '',
    object: 'chat.completion',
    created,
    model: response.model ?? '',
    system_fingerprint: null,
    choices: [choice],
  };
  if (response.usage?.service_tier != null) completion.service_tier = response.usage.service_tier;
  if (response.usage) completion.usage = convertAnthropicUsage(response.usage);
  return completion;
}

import type { AssistantMessage, ChatMessage, TextPart } from '../../protocol/chat.js';
import { isRecord } from '../../util/is-record.js';
import { pushAll } from '../../util/push-all.js';
import type { AnthropicContentBlock, AnthropicMessage, AnthropicTextBlock } from './anthropic-messages-api-types.js';
import { convertToAnthropicContentPart, convertToAnthropicTextPart } from './convert-to-anthropic-content-part.js';

/**
 * Anthropic's `system` and `messages` for canonical messages (pure).
 * System and developer messages, wherever they stand, go to `system`, the
 * only place Anthropic takes instructions. Tool results are user turns with
 * tool_result blocks, and assistant tool calls are tool_use blocks.
 * Consecutive turns of one role are merged into one, because Anthropic
 * requires user and assistant to alternate (a tool result then shares the
 * user turn that follows it, ahead of the text, as Anthropic wants).
 * Assistant `reasoning` is not sent back: a thinking block is refused
 * without the signature that the canonical shape does not keep.
 */
export function convertToAnthropicMessages(messages: readonly ChatMessage[]): {
  system: AnthropicTextBlock[];
  messages: AnthropicMessage[];
} {
  const system: AnthropicTextBlock[] = [];
  const converted: AnthropicMessage[] = [];
  const append = (role: AnthropicMessage['role'], content: AnthropicContentBlock[]) => {
    if (content.length === 0) return;
    const last = converted.at(-1);
    if (last?.role === role) pushAll(last.content, content);
    else converted.push({ role, content });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        pushAll(system, textBlocks(message.content));
        break;
      case 'user':
        append(
          'user',
          typeof message.content === 'string' ? textBlocks(message.content) : compact(message.content.map(convertToAnthropicContentPart)),
        );
        break;
      case 'assistant':
        append('assistant', assistantBlocks(message));
        break;
      case 'tool':
        append('user', [
          {
            type: 'tool_result',
            tool_use_id: message.tool_call_id,
            content: typeof message.content === 'string' ? message.content : textBlocks(message.content),
          },
        ]);
        break;
    }
  }
  if (converted.length === 0 && system.length > 0) return { system: [], messages: [{ role: 'user', content: system }] };
  return { system, messages: converted };
}

function assistantBlocks(message: AssistantMessage): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = message.content ? textBlocks(message.content) : [];
  for (const call of message.tool_calls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInput(call.function.arguments) });
  }
  return blocks;
}

function textBlocks(content: string | TextPart[]): AnthropicTextBlock[] {
  const parts: TextPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return compact(parts.map(convertToAnthropicTextPart));
}

/**
 * Anthropic takes a tool call's input as an object. Arguments that are empty
 * or not a JSON object (a model's broken JSON coming back in the history)
 * become {} rather than making Anthropic refuse the whole conversation.
 */
function toolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function compact<T>(items: (T | undefined)[]): T[] {
  return items.filter((item): item is T => item !== undefined);
}
